// What this sign-in may do, in the editor: the scopes the person allowed (`/v1/me`'s
// `grant.scopes`, the token response's `scope` as the service keeps it) drive context keys that
// disable the commands it cannot do, and a line on the views that says how to allow them.
import type * as vscode from 'vscode';
import type { ClientCore } from '../sync';
import { CONTEXT, setContext } from './context-keys';
import type { AssistantsTreeNode } from './assistants-view';
import type { CardsTree } from './cards-tree';
import type { TreeViewSlot } from './tree-view-slot';
import { allowedBy, canHandOver, EVERYTHING, notAllowedNote, type Allowed } from './shared/scopes';

/** The last granted scopes each core was online with: offline keeps what the sign-in was allowed. */
const known = new WeakMap<ClientCore, readonly string[]>();

/** The granted scopes, or undefined when not known (never signed in here, or signed out). */
export function grantedScopes(core: ClientCore): readonly string[] | undefined {
  const s = core.state;
  if (s.kind === 'online') known.set(core, s.me.grant.scopes);
  else if (s.kind === 'signed-out' || s.kind === 'not-set-up') known.delete(core);
  return known.get(core);
}

export const allowedNow = (core: ClientCore): Allowed => allowedBy(grantedScopes(core));

/** Sets the `assistantCards.can*` keys (`enablement` of the commands in package.json). */
export function setGrantContext(a: Allowed): void {
  setContext(CONTEXT.canAnswer, a.answer);
  setContext(CONTEXT.canReply, a.reply);
  setContext(CONTEXT.canLater, a.later);
  setContext(CONTEXT.canDelegate, a.delegate);
  setContext(CONTEXT.canHandOver, canHandOver(a));
}

/** Per client core: keys and the views' note follow the sign-in. */
export function createGrantFeature(ctx: { core: ClientCore; tree: CardsTree; assistantsView: TreeViewSlot<AssistantsTreeNode> }): vscode.Disposable {
  const show = () => {
    const a = allowedNow(ctx.core);
    setGrantContext(a);
    ctx.tree.view.message = notAllowedNote(a);
    ctx.assistantsView.view.message = a.assistants ? undefined : notAllowedNote({ ...EVERYTHING, assistants: false });
  };
  show();
  const sub = ctx.core.onDidChangeState(show);
  return { dispose: () => { sub.dispose(); setGrantContext(EVERYTHING); ctx.tree.view.message = undefined; ctx.assistantsView.view.message = undefined; } };
}
