// How many cards wait on the person, where the window tells it: the status bar (with the blocking
// ones), and the count other extensions read through the public API (public-api.ts), with its event.
import * as vscode from 'vscode';
import type { Counts } from '../../sync/contract';
import { DisposableBase } from '../base/disposable';
import type { CardsStatusBar } from './status-bar';

export class WaitingCount extends DisposableBase {
  private n = 0;
  private readonly changed = this._register(new vscode.EventEmitter<number>());
  /** Fires with the new count when it changes. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly status: Pick<CardsStatusBar, 'setCounts'>) { super(); }

  /** The cards waiting on the person now (the live set's last counts, whatever its state). */
  get waiting(): number { return this.n; }

  /** The live set's counts, as they are now and on each change. */
  set(c: Counts): void {
    this.status.setCounts(c);
    if (c.waiting !== this.n) { this.n = c.waiting; this.changed.fire(c.waiting); }
  }
}
