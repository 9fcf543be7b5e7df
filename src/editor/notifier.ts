// A notification when a blocking card arrives while this window is focused (the phone is quiet
// then), with "Open". Never more than one at a time: later arrivals while one shows are skipped,
// the tree and the status bar still count them. A toast hides by itself after a while but its
// promise stays open until dismissed, so "shows" ends at dismissal or after SHOWN_MS.
import * as vscode from 'vscode';
import { say } from './say';
import type { ClientCore } from '../sync';
import { DisposableBase } from './disposable';
import { plainText } from './shared/plain-text';

const SHOWN_MS = 30_000;

export class BlockingNotifier extends DisposableBase {
  private showingUntil = 0;
  /** How many notifications were shown (for tests). */
  shown = 0;
  /** Whether the window has focus; replaceable where the host cannot report focus (headless tests). */
  focused: () => boolean = () => vscode.window.state.focused;

  constructor(core: ClientCore, open: (cardId: string) => void) {
    super();
    this._register(core.cards.added((c) => {
      if (!c.blocking || c.status !== 'pending' || c.turn !== 'you') return;
      if (!this.focused() || Date.now() < this.showingUntil) return;
      const until = Date.now() + SHOWN_MS;
      this.showingUntil = until;
      this.shown++;
      void say.info(vscode.l10n.t('A blocking card waits on you: {0}', plainText(c.title, 100)), vscode.l10n.t('Open'))
        .then((pick) => { if (pick === vscode.l10n.t('Open')) open(c.id); }, () => undefined)
        .then(() => { if (this.showingUntil === until) this.showingUntil = 0; });
    }));
  }
}
