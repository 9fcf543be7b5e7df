// The status bar item: how many cards wait on the person; a click opens the next card.
import * as vscode from 'vscode';
import type { ConnectionState, Counts } from '../../sync/contract';
import { DisposableBase } from '../base/disposable';
import { plainText, shownCode } from '../../shared/plain-text';
import { spokenStatus } from '../../shared/spoken';

/** Whole sentences, one per count shape (a translator sees each as it reads). */
function waitingTooltip(n: number, blocking: number): string {
  if (blocking === 0) return n === 1 ? vscode.l10n.t('1 card waits on you. Click to open the next.') : vscode.l10n.t('{0} cards wait on you. Click to open the next.', n);
  if (n === 1) return vscode.l10n.t('1 card waits on you, and it is blocking. Click to open the next.');
  return blocking === 1
    ? vscode.l10n.t('{0} cards wait on you, 1 of them blocking. Click to open the next.', n)
    : vscode.l10n.t('{0} cards wait on you, {1} of them blocking. Click to open the next.', n, blocking);
}

export class CardsStatusBar extends DisposableBase {
  readonly item: vscode.StatusBarItem;
  private counts: Counts = { waiting: 0, blockingWaiting: 0 };
  private state: ConnectionState = { kind: 'signed-out' };

  constructor() {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('assistantCards.status', vscode.StatusBarAlignment.Left, 50));
    this.item.name = 'Assistant Cards';
    this.render();
    this.item.show();
  }

  setCounts(c: Counts): void { this.counts = c; this.render(); }
  setState(s: ConnectionState): void { this.state = s; this.render(); }

  /** The text shown, for tests. */
  get text(): string { return this.item.text; }

  private render(): void {
    const it = this.item;
    it.backgroundColor = undefined;
    // Every state says itself: the icon glyphs in the text read as nothing (or as their names).
    it.accessibilityInformation = { label: spokenStatus(this.state, this.counts) };
    switch (this.state.kind) {
      case 'signed-out':
        it.text = vscode.l10n.t('$(bell-slash) Cards: sign in');
        it.tooltip = vscode.l10n.t('Assistant Cards: signed out. Click to sign in.');
        it.command = 'assistantCards.signIn';
        return;
      case 'not-set-up':
        it.text = vscode.l10n.t('$(warning) Cards: not set up');
        it.tooltip = vscode.l10n.t('This computer is not set up for Assistant Cards.');
        it.command = 'assistantCards.cards.focus';
        return;
      case 'signing-in':
        // The code as the sign-in's notification and the Cards view show it (shared/plain-text.ts shownCode).
        it.text = vscode.l10n.t('$(sync~spin) Cards: code {0}', shownCode(this.state.userCode));
        it.tooltip = vscode.l10n.t('Signing in: click to copy the code and open the page that allows it.');
        it.command = 'assistantCards.copySignInCode';
        return;
      case 'offline':
        it.text = vscode.l10n.t('$(debug-disconnect) Cards: offline ({0})', this.counts.waiting);
        it.tooltip = vscode.l10n.t('The service cannot be reached: {0}. Cards refresh by themselves once it is back.', plainText(this.state.lastError, 200));
        it.command = 'assistantCards.refresh';
        return;
      case 'online': {
        const n = this.counts.waiting;
        it.text = n > 0 ? `$(bell-dot) ${n}` : '$(bell) 0';
        const blocking = this.counts.blockingWaiting;
        it.tooltip = n === 0
          ? vscode.l10n.t('No cards wait on you.')
          : waitingTooltip(n, blocking);
        it.command = 'assistantCards.nextCard';
        if (blocking > 0) it.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      }
    }
  }
}
