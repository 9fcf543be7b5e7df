// A base for objects that own other disposables (the pattern of vscode-pull-request-github).
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
