// The `assistant-cards` authentication provider: the sign-in shows in VS Code's Accounts menu and
// signing out there signs out here. The session's token is DPoP-bound and useless without the key,
// which never leaves the client core, so other extensions get a placeholder, never the token.
import * as vscode from 'vscode';
import type { Me } from '../../api/schemas';
import type { ClientCore, ConnectionState } from '../../sync';
import { DisposableBase } from '../base/disposable';

export const AUTH_PROVIDER_ID = 'assistant-cards';

export interface CoreSource {
  current(): ClientCore | undefined;
  /** Interactive sign-in with the current core. */
  signIn(): Promise<Me | undefined>;
}

export class CardsAuthProvider extends DisposableBase implements vscode.AuthenticationProvider {
  private readonly emitter = this._register(new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>());
  readonly onDidChangeSessions = this.emitter.event;
  private session: vscode.AuthenticationSession | undefined;

  constructor(private readonly source: CoreSource) {
    super();
    this._register(vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, 'Assistant Cards', this, {
      supportsMultipleAccounts: false,
    }));
  }

  /** Called whenever the core's state changes: keeps the Accounts menu in step. */
  update(state: ConnectionState): void {
    const next = state.kind === 'online' ? toSession(state.me) : state.kind === 'offline' ? this.session : undefined;
    const prev = this.session;
    if (prev?.id === next?.id) return;
    this.session = next;
    this.emitter.fire({
      added: next && !prev ? [next] : [],
      removed: prev && !next ? [prev] : [],
      changed: prev && next ? [next] : [],
    });
  }

  async getSessions(): Promise<vscode.AuthenticationSession[]> {
    return this.session ? [this.session] : [];
  }

  async createSession(): Promise<vscode.AuthenticationSession> {
    const me = await this.source.signIn();
    if (!me) throw new Error(vscode.l10n.t('Sign-in did not finish.'));
    const s = toSession(me);
    this.update({ kind: 'online', me });
    return s;
  }

  async removeSession(): Promise<void> {
    await this.source.current()?.signOut();
    this.update({ kind: 'signed-out' });
  }
}

function toSession(me: Me): vscode.AuthenticationSession {
  const machine = me.grant.machine?.name;
  return {
    id: me.grant.id,
    accessToken: 'dpop-bound', // the real token is bound to a key the core keeps; never handed out
    account: { id: me.user.id, label: machine ? vscode.l10n.t('{0} on {1}', me.user.id, machine) : me.user.id },
    scopes: me.grant.scopes,
  };
}
