// Offline, told once: when the service stops answering, one notification per offline spell (not
// one per failed request) in the window the person is at, and the cards tree shows an "offline"
// row above the cards it still lists. Both go by themselves when the service answers again: the
// notification is a progress notification that ends with the spell.
import * as vscode from 'vscode';
import type { ClientCore, ConnectionState } from '../../sync';
import type { CardsTree } from '../cards/cards-tree';
import { DisposableBase } from '../base/disposable';
import { inert } from '../../shared/plain-text';

export class OfflineNotice extends DisposableBase {
  /** Ends the current spell's notification; set while one shows. */
  private endSpell: (() => void) | undefined;
  private offline = false;

  constructor(core: Pick<ClientCore, 'state' | 'onDidChangeState'>, private readonly tree: CardsTree, private readonly here: () => boolean) {
    super();
    this._register(core.onDidChangeState((s) => this.follow(s)));
    this._register({ dispose: () => this.end() });
    this.follow(core.state);
  }

  private follow(s: ConnectionState): void {
    const offline = s.kind === 'offline';
    if (offline === this.offline) return; // still the same spell: told already
    this.offline = offline;
    this.tree.setOffline(offline ? s.since : undefined);
    if (!offline) { this.end(); return; }
    if (!this.here()) return; // the tree and the status bar tell it in the other windows
    void vscode.window.withProgress({
      location: vscode.ProgressLocation.Notification,
      title: inert(vscode.l10n.t('Assistant Cards: offline. The service does not answer; your cards show as last read, and it reconnects by itself.')),
      cancellable: false,
    }, () => new Promise<void>((resolve) => { this.endSpell = resolve; }));
  }

  private end(): void {
    this.endSpell?.();
    this.endSpell = undefined;
  }
}
