// The one lifetime idiom of the client, without `vscode`: an object owns what it registers (event
// listeners, timers, parts) and disposes it, last registered first. src/editor's DisposableBase
// owns one (base/disposable.ts), so the loop below is the only one of both layers.
// A `dispose` that must finish work the service hears (presence's here:false, the feed lease's
// release, the transport's close) is async, as the editor's LiveParts.dispose that awaits it.
import type { Disposable } from './contract';

export class Lifetime implements Disposable {
  private readonly owned: { dispose(): unknown }[] = [];
  private disposed = false;

  /**
   * Owns `d` from now on; disposed at once when this lifetime has ended. Its `dispose` may return
   * a promise (a part that finishes work the service hears): it is started, not awaited.
   */
  add<T extends { dispose(): unknown }>(d: T): T {
    if (this.disposed) d.dispose();
    else this.owned.push(d);
    return d;
  }

  get isDisposed(): boolean { return this.disposed; }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    while (this.owned.length) {
      try { this.owned.pop()?.dispose(); } catch { /* keep disposing the rest */ }
    }
  }
}
