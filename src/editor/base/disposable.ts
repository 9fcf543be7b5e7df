// The one lifetime idiom of src/editor: an object owns what it registers and disposes it, last
// registered first (the pattern of vscode-pull-request-github and VS Code's own Disposable). The
// loop is the client core's `Lifetime` (sync/lifetime.ts): one loop for both layers, which the
// editor owns one of here (the core may not import the editor).
import type * as vscode from 'vscode';
import { Lifetime } from '../../sync';

export abstract class DisposableBase implements vscode.Disposable {
  private readonly lifetime = new Lifetime();

  protected _register<T extends { dispose(): unknown }>(d: T): T { return this.lifetime.add(d); }

  protected get isDisposed(): boolean { return this.lifetime.isDisposed; }

  dispose(): void { this.lifetime.dispose(); }
}

/** A DisposableBase for a function's parts (no class of their own): `add` is `_register`. */
export class DisposableStore extends DisposableBase {
  add<T extends { dispose(): unknown }>(d: T): T { return this._register(d); }
}
