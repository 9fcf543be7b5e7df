// The one lifetime idiom of src/editor: an object owns what it registers and disposes it, last
// registered first (the pattern of vscode-pull-request-github and VS Code's own Disposable).
import type * as vscode from 'vscode';

export abstract class DisposableBase implements vscode.Disposable {
  private readonly owned: { dispose(): unknown }[] = [];
  private disposed = false;

  protected _register<T extends { dispose(): unknown }>(d: T): T {
    if (this.disposed) d.dispose();
    else this.owned.push(d);
    return d;
  }

  protected get isDisposed(): boolean { return this.disposed; }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    while (this.owned.length) {
      try { this.owned.pop()?.dispose(); } catch { /* keep disposing the rest */ }
    }
  }
}

/** A DisposableBase for a function's parts (no class of their own): `add` is `_register`. */
export class DisposableStore extends DisposableBase {
  add<T extends { dispose(): unknown }>(d: T): T { return this._register(d); }
}
