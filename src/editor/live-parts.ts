// One live set of parts per client core, built in one place: the cards tree, the card panels, the
// card notifier, the offline notice, the assistants feature, the grant feature and the status wiring. The
// set is disposed whole when the service address or the computer identity changes (extension.ts
// rebuilds it), so a late event of an old core never reaches a newer set.
import * as vscode from 'vscode';
import type { ClientCore, ConnectionState, Counts } from '../sync';
import { createAssistantsFeature, type AssistantsFeature } from './assistants-feature';
import { AnswersTree, type AnswersNode } from './answers-view';
import type { AssistantsTreeNode } from './assistants-view';
import { CardPanels } from './card-panel';
import { CardsTree, type Node as CardsTreeNode } from './cards-tree';
import { CONTEXT, setContext } from './context-keys';
import { allowedNow, createGrantFeature } from './grant';
import type { Log } from './log';
import { CardNotifier } from './notifier';
import { OfflineNotice } from './offline-notice';
import type { TreeViewSlot } from './tree-view-slot';

/** Signed in: online, or offline with the sign-in kept. The one test of it in the editor. */
export const isSignedIn = (s: ConnectionState): boolean => s.kind === 'online' || s.kind === 'offline';

/** What outlives every set: made once at activation. */
export interface LivePartsHost {
  log: Log;
  extension: Pick<vscode.ExtensionContext, 'extensionUri' | 'workspaceState'>;
  cardsView: TreeViewSlot<CardsTreeNode>;
  assistantsView: TreeViewSlot<AssistantsTreeNode>;
  answersView: TreeViewSlot<AnswersNode>;
  /** Opens a card in the set of this moment (a notification clicked late may outlive this set). */
  openCard(id: string): void;
  /** The connection state of this set's core, as it is now and on each change. */
  onState(s: ConnectionState): void;
  /** The counts of this set's cards, as they are now and on each change (status bar, public API). */
  onCounts(c: Counts): void;
  timeZone(): string;
}

export interface LiveParts {
  /** The settings this set was built for; a rebuild with the same key keeps it. */
  readonly key: string;
  readonly core: ClientCore;
  readonly tree: CardsTree;
  readonly panels: CardPanels;
  readonly notifier: CardNotifier;
  readonly offline: OfflineNotice;
  readonly assistants: AssistantsFeature;
  /** Who answered what, from where (the Answers view). */
  readonly answers: AnswersTree;
  /** The silent sign-in at start; an interactive sign-in waits for it so the two never race. */
  readonly started: Promise<void>;
  /** Resolves once the core said `here: false` and let go of the feed lease (awaited on shutdown). */
  dispose(): Promise<void>;
}

/** Builds the set for `core` and starts the core (silent sign-in: stored tokens only, never a prompt). */
export function buildLiveParts(host: LivePartsHost, core: ClientCore, key: string): LiveParts {
  const subs: vscode.Disposable[] = [];
  const dispose = (): Promise<void> => {
    for (const d of subs.splice(0).reverse()) { try { d.dispose(); } catch { /* keep going */ } }
    return core.dispose().catch(() => undefined);
  };
  try {
    const tree = own(subs, new CardsTree(core.cards, host.log, host.cardsView, () => isSignedIn(core.state)));
    const answers = own(subs, new AnswersTree(core, host.log, host.answersView, () => isSignedIn(core.state), host.timeZone));
    const panels = own(subs, new CardPanels({
      core, log: host.log, extensionUri: host.extension.extensionUri, workspaceState: host.extension.workspaceState,
      timeZone: host.timeZone, online: () => core.state.kind === 'online', allowed: () => allowedNow(core),
    }));
    const assistants = own(subs, createAssistantsFeature(core, host.log, host.assistantsView));
    const notifier = own(subs, new CardNotifier(core, (id) => host.openCard(id), host.log, (target) => assistants.matcher.terminalFor(target)));
    // Offline told once, in the window the person is at; the tree's row in every window.
    const offline = own(subs, new OfflineNotice(core, tree, () => notifier.here()));
    // What the sign-in may do: command enablement and the views' note (scopes the person did not allow).
    own(subs, createGrantFeature({ core, tree, assistantsView: host.assistantsView }));

    const updateNoCards = () => {
      const none = (['pending', 'agent', 'snoozed', 'delegated'] as const).every((g) => core.cards.list(g).length === 0);
      setContext(CONTEXT.noCards, none);
    };
    subs.push(
      core.cards.countsChanged((c) => { host.onCounts(c); updateNoCards(); }),
      core.cards.added(updateNoCards),
      core.cards.removed(updateNoCards),
      core.onDidChangeState((s) => { host.onState(s); updateNoCards(); tree.refreshAll(); answers.refreshAll(); }),
      vscode.window.onDidChangeWindowState((s) => core.feed.setFocused(s.focused)),
    );
    core.feed.setFocused(vscode.window.state.focused);
    host.onCounts(core.cards.counts());
    host.onState(core.state);
    const started = core.start().catch((e: unknown) => host.log.warn(`start: ${String(e)}`));
    return { key, core, tree, panels, notifier, offline, assistants, answers, started, dispose };
  } catch (e) {
    void dispose();
    throw e;
  }
}

function own<T extends vscode.Disposable>(subs: vscode.Disposable[], d: T): T {
  subs.push(d);
  return d;
}
