// One live set of parts per client core, built in one place: the cards tree, the card notifier,
// the offline notice, the assistants feature, the grant feature and the status wiring; the card
// panels (made once, at activation) are lent this core while the set lasts. The set is disposed
// whole when the service address or the computer identity changes (extension.ts rebuilds it), so
// a late event of an old core never reaches a newer set.
import * as vscode from 'vscode';
import type { ClientCore, ConnectionState, Counts } from '../sync';
import { isFilterEmpty, LIVE_GROUPS } from '../sync';
import { createAssistantsFeature, type AssistantsFeature } from './assistants/assistants-feature';
import type { ConnectedClisSource } from './assistants/assistants-view';
import { AnswersTree, type AnswersNode } from './answers/answers-view';
import type { AssistantsTreeNode } from './assistants/assistants-view';
import type { CardPanelManager } from './panel/card-panel-manager';
import { CardPanel } from './panel/card-panel';
import { CardsTree, type Node as CardsTreeNode } from './cards/cards-tree';
import { CONTEXT, type ContextKeys } from './context-keys';
import { DisposableBase } from './base/disposable';
import { Grant } from './sign-in/grant';
import type { Log } from './base/log';
import { signInInteractive } from './sign-in/sign-in';
import type { Me } from '../api/schemas';
import { CardNotifier } from './cards/notifier';
import { OfflineNotice } from './connection/offline-notice';
import { scopeSetting } from './cards/card-scope';
import { thisComputer } from '../sync';
import type { TreeViewSlot } from './base/tree-view-slot';

import { isSignedIn } from './signed-in';

export { isSignedIn } from './signed-in';

/** What outlives every set: made once at activation. */
export interface LivePartsHost {
  log: Log;
  cardsView: TreeViewSlot<CardsTreeNode>;
  assistantsView: TreeViewSlot<AssistantsTreeNode>;
  /** The CLIs connected now, shown as rows of the Assistants view. */
  connectedClis?: ConnectedClisSource;
  /** The card panels; each set attaches its core to them while it lasts. */
  panels: CardPanelManager;
  answersView: TreeViewSlot<AnswersNode>;
  /** Opens a card in the set of this moment (a notification clicked late may outlive this set). */
  openCard(id: string): void;
  /** The connection state of this set's core, as it is now and on each change. */
  onState(s: ConnectionState): void;
  /** The counts of this set's cards, as they are now and on each change (status bar, public API). */
  onCounts(c: Counts): void;
  timeZone(): string;
  /** The window's context keys (one per activation). */
  contextKeys: ContextKeys;
}

export class LiveParts extends DisposableBase {
  readonly tree: CardsTree;
  readonly notifier: CardNotifier;
  readonly offline: OfflineNotice;
  readonly assistants: AssistantsFeature;
  /** What the sign-in may do (its scopes). */
  readonly grant: Grant;
  /** Who answered what, from where (the Answers view). */
  readonly answers: AnswersTree;
  /** The silent sign-in at start; an interactive sign-in waits for it so the two never race. */
  readonly started: Promise<void>;

  /** Builds the set for `core` and starts the core (silent sign-in: stored tokens only, never a prompt). */
  constructor(host: LivePartsHost, readonly core: ClientCore, /** The settings this set was built for; a rebuild with the same key keeps it. */ readonly key: string) {
    super();
    try {
      // Rows name their computer only when every computer's cards show: all rows again on a change.
      // The setting is read once per change, not once per row the tree builds.
      let everywhere = scopeSetting() === 'everywhere';
      const tree = this.tree = this._register(new CardsTree(core.cards, host.log, host.cardsView, () => isSignedIn(core.state), {
        named: () => everywhere, thisId: () => thisComputer(core.state),
      }));
      this._register(vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('assistantCards.scope')) return;
        everywhere = scopeSetting() === 'everywhere';
        tree.refreshAll();
      }));
      const answers = this.answers = this._register(new AnswersTree(core, host.log, host.answersView, () => isSignedIn(core.state), host.timeZone, host.contextKeys));
      const assistants = this.assistants = this._register(createAssistantsFeature(core, host.log, host.assistantsView, host.contextKeys, host.connectedClis));
      // What the sign-in may do: command enablement and the views' note (scopes the person did not allow).
      const grant = this.grant = this._register(new Grant({ core, tree, assistantsView: host.assistantsView, keys: host.contextKeys, signInAgain: () => void this.signIn(host.log) }));
      this._register(host.panels.attach({
        core, timeZone: host.timeZone, online: () => core.state.kind === 'online', allowed: () => grant.allowed(),
        thisComputer: () => thisComputer(core.state),
        focusTerminal: (card) => assistants.focusTerminalForCard(card),
      }, CardPanel));
      const notifier = this.notifier = this._register(new CardNotifier(core, (id) => host.openCard(id), host.log, (target) => assistants.matcher.terminalFor(target), host.contextKeys));
      // Offline told once, in the window the person is at; the tree's row in every window.
      this.offline = this._register(new OfflineNotice(core, tree, () => notifier.here()));

      const updateNoCards = () => {
        const none = core.cards.size(...LIVE_GROUPS) === 0;
        host.contextKeys.set(CONTEXT.noCards, none);
      };
      // The keys the tree's menus read: a filter in force, how many cards wait on the person.
      const keys = host.contextKeys;
      this._register(core.cards.filterChanged((f) => keys.set(CONTEXT.filtered, !isFilterEmpty(f))));
      keys.set(CONTEXT.waiting, core.cards.counts().waiting);
      this._register(core.cards.countsChanged((c) => { host.onCounts(c); updateNoCards(); keys.set(CONTEXT.waiting, c.waiting); }));
      this._register(core.cards.added(updateNoCards));
      this._register(core.cards.removed(updateNoCards));
      this._register(core.onDidChangeState((s) => { host.onState(s); updateNoCards(); tree.refreshAll(); answers.refreshAll(); }));
      this._register(vscode.window.onDidChangeWindowState((s) => core.feed.setFocused(s.focused)));
      core.feed.setFocused(vscode.window.state.focused);
      host.onCounts(core.cards.counts());
      host.onState(core.state);
      this.started = core.start().catch((e: unknown) => host.log.warn(`start: ${String(e)}`));
    } catch (e) {
      void this.dispose();
      throw e;
    }
  }

  private signingIn: Promise<Me | undefined> | undefined;
  private signInAbort: AbortController | undefined;

  /** The interactive sign-in of this core; a second call while one is under way joins it. */
  signIn(log: Log): Promise<Me | undefined> {
    if (!this.signingIn) {
      const abort = new AbortController();
      this.signInAbort = abort;
      this.signingIn = signInInteractive(this.core, log, abort).finally(() => { this.signingIn = undefined; this.signInAbort = undefined; });
    }
    return this.signingIn;
  }

  /** Ends the sign-in under way (the welcome view's Cancel); its notification closes with it. */
  cancelSignIn(): void {
    this.signInAbort?.abort();
  }

  /** Resolves once the core said `here: false` and let go of the feed lease (awaited on shutdown). */
  override dispose(): Promise<void> {
    super.dispose();
    return this.core.dispose().catch(() => undefined);
  }
}
