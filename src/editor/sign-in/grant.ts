// What this sign-in may do, in the editor: the scopes the person allowed (`/v1/me`'s
// `grant.scopes`, the token response's `scope` as the service keeps it) drive context keys that
// disable the commands it cannot do, and a line on the views that says how to allow them.
import * as vscode from 'vscode';
import type { ClientCore } from '../../sync';
import { say } from '../base/say';
import { scopeSetting } from '../cards/card-scope';
import { grantKey, type ContextKeys } from '../context-keys';
import { ACTION_TYPES, actionRow, missingFor } from '../../shared/card-actions';
import { DisposableBase } from '../base/disposable';
import type { AssistantsTreeNode } from '../assistants/assistants-view';
import type { CardsTree } from '../cards/cards-tree';
import type { TreeViewSlot } from '../base/tree-view-slot';
import { allowedBy, EVERYTHING, narrowerSignInNote, notAllowedNote, widerSignInNote, type Allowed } from '../../shared/grant-scopes';

/**
 * Sets the `assistantCards.can*` keys (`enablement` of the commands in package.json): each action's
 * key, from what its row in the action table needs (rows sharing a key need the same: test/shared/card-actions.test.ts).
 */
export function setGrantContext(keys: ContextKeys, a: Allowed): void {
  for (const type of ACTION_TYPES) keys.set(grantKey(actionRow(type).enablement), missingFor(a, type) === undefined);
}

/** Per client core (one per live set): what the sign-in may do; keys and the views' note follow it. */
export class Grant extends DisposableBase {
  /** The last granted scopes this core was online with: offline keeps what the sign-in was allowed. */
  private known: readonly string[] | undefined;
  /** The scope setting as last seen: leaving `everywhere` offers to give its permission back. */
  private scopeWas = scopeSetting();

  constructor(private readonly ctx: {
    core: ClientCore; tree: CardsTree; assistantsView: TreeViewSlot<AssistantsTreeNode>; keys: ContextKeys;
    /** The interactive sign-in of this core, also while signed in (a new grant replaces the old). */
    signInAgain: () => void;
  }) {
    super();
    this.show();
    this._register(ctx.core.onDidChangeState(() => this.show()));
    this._register(vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('assistantCards.scope')) return;
      const was = this.scopeWas;
      this.scopeWas = scopeSetting();
      this.show();
      this.offerWiderSignIn();
      if (was === 'everywhere' && this.scopeWas !== 'everywhere') this.offerNarrowerSignIn();
    }));
    this._register({
      dispose: () => { setGrantContext(ctx.keys, EVERYTHING); ctx.tree.view.message = undefined; ctx.assistantsView.view.message = undefined; },
    });
  }

  /** The granted scopes, or undefined when not known (never signed in here, or signed out). */
  granted(): readonly string[] | undefined {
    const s = this.ctx.core.state;
    if (s.kind === 'online') this.known = s.me.grant.scopes;
    else if (s.kind === 'signed-out' || s.kind === 'not-set-up') this.known = undefined;
    return this.known;
  }

  allowed(): Allowed { return allowedBy(this.granted()); }

  /**
   * The person just chose every computer's cards while this sign-in sees this computer's only:
   * one notification says why and signs in again on one press. Never on its own.
   */
  private offerWiderSignIn(): void {
    if (this.ctx.core.state.kind !== 'online') return;
    const note = widerSignInNote(this.granted(), scopeSetting() === 'everywhere');
    if (!note) return;
    const again = vscode.l10n.t('Sign In Again');
    void say.info(vscode.l10n.t('Assistant Cards: {0}', note), again).then((pick) => {
      if (pick === again && !this.isDisposed) this.ctx.signInAgain();
    });
  }

  /**
   * The person left every computer's cards while this sign-in may still see them: one
   * notification offers to give that back, signing in again on one press (the new sign-in asks
   * for this computer's cards only and replaces this one). Never on its own.
   */
  private offerNarrowerSignIn(): void {
    if (this.ctx.core.state.kind !== 'online') return;
    const note = narrowerSignInNote(this.granted(), scopeSetting() === 'everywhere');
    if (!note) return;
    const again = vscode.l10n.t('Sign In Again');
    void say.info(vscode.l10n.t('Assistant Cards: {0}', note), again).then((pick) => {
      if (pick === again && !this.isDisposed) this.ctx.signInAgain();
    });
  }

  private show(): void {
    const a = this.allowed();
    setGrantContext(this.ctx.keys, a);
    const everywhere = scopeSetting() === 'everywhere';
    const notes = [widerSignInNote(this.granted(), everywhere), narrowerSignInNote(this.granted(), everywhere), notAllowedNote(a)].filter(Boolean);
    this.ctx.tree.view.message = notes.length ? notes.join(' ') : undefined;
    this.ctx.assistantsView.view.message = a.assistants ? undefined : notAllowedNote({ ...EVERYTHING, assistants: false });
  }
}
