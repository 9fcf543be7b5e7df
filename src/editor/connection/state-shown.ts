// The live set's connection state, shown wherever the window shows it: the context key the views'
// welcomes read, the status bar, the auth provider's session, the sign-in code in the Cards view's
// header, and (once per ending) the prompt to sign in again when the service ended a sign-in in use.
import * as vscode from 'vscode';
import type { ConnectionState } from '../../sync';
import type { Log } from '../base/log';
import { say } from '../base/say';
import type { TreeViewSlot } from '../base/tree-view-slot';
import type { Node as CardsTreeNode } from '../cards/cards-tree';
import type { CardsStatusBar } from '../cards/status-bar';
import { CONTEXT, stateKey, type ContextKeys } from '../context-keys';
import type { CardsAuthProvider } from '../sign-in/auth-provider';
import { shownCode } from '../../shared/plain-text';

export interface StateShownHost {
  log: Log;
  contextKeys: ContextKeys;
  status: Pick<CardsStatusBar, 'setState'>;
  auth: Pick<CardsAuthProvider, 'update'>;
  cardsView: TreeViewSlot<CardsTreeNode>;
  signIn(): Promise<unknown>;
}

export class StateShown {
  private last: ConnectionState = { kind: 'signed-out' };
  private reauthPrompt: Thenable<unknown> | undefined;

  constructor(private readonly host: StateShownHost) {}

  show(s: ConnectionState): void {
    const { host } = this;
    const prev = this.last;
    this.last = s;
    host.contextKeys.set(CONTEXT.state, stateKey(s));
    host.status.setState(s);
    host.auth.update(s);
    // The code in the view's header, above the welcome's Copy and Open and Cancel (a welcome's
    // words cannot change, and a view message would hide the welcome).
    if (s.kind === 'signing-in') host.cardsView.view.description = vscode.l10n.t('code {0}', shownCode(s.userCode));
    else if (prev.kind === 'signing-in') host.cardsView.view.description = undefined;
    if (s.kind !== prev.kind) host.log.info(`state ${stateKey(s)}`);
    // The service ended the sign-in while in use, or a renewal's answer was lost (possibly while
    // offline): prompt once, however many requests failed. A sign-out the person made (here or in
    // another window) needs no telling. Only the service's refusals are told as ended by it.
    const ended = s.kind === 'signed-out' && (s.reason === 'refused' || s.reason === 'app-removed' || s.reason === 'renewal-lost');
    const wasIn = prev.kind === 'online' || (prev.kind === 'offline' && s.kind === 'signed-out' && s.reason === 'renewal-lost');
    if (wasIn && ended && !this.reauthPrompt) {
      const text = s.reason === 'app-removed'
        ? vscode.l10n.t('Assistant Cards: this app was removed from your account, so the service refuses it. Sign in again to allow it.')
        : s.reason === 'renewal-lost'
          ? vscode.l10n.t('Assistant Cards: the connection dropped while renewing your sign-in, so it could not be kept. Sign in again to keep seeing your cards.')
          : vscode.l10n.t('Assistant Cards: your sign-in ended. Sign in again to keep seeing your cards.');
      this.reauthPrompt = say.warn(text, vscode.l10n.t('Sign In'))
        .then((p) => { if (p) void host.signIn(); })
        .then(() => { this.reauthPrompt = undefined; }, () => { this.reauthPrompt = undefined; });
    }
  }
}
