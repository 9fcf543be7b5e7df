// The assistants feature of one client core: the assistants view, terminal matching, workspace
// scope, presence, "Go to terminal" and "Cards of the active terminal". live-parts.ts builds one
// per signed-in set; the commands reach it through those parts.
import * as vscode from 'vscode';
import { say } from '../base/say';
import { focusTargetOf } from '../../shared/card-facts';
import { plainText } from '../../shared/plain-text';
import { openCountMovedFor, thisComputer } from '../../sync';
import { elsewhereName, elsewhereNote } from '../../shared/card-computer';
import type { Assistant, CardListEntry } from '../../api/schemas';
import type { AssistantsView, CardModelView, ConnectionState, Event, FeedOwnership, PresenceControl } from '../../sync/contract';
import { AssistantsTree, type AssistantsTreeNode, type ConnectedClisSource } from './assistants-view';
import { DisposableBase, DisposableStore } from '../base/disposable';
import type { Log } from '../base/log';
import { PresenceReporter } from '../connection/presence';
import { ScopeController } from '../cards/card-scope';
import type { ContextKeys } from '../context-keys';
import { TerminalMatcher } from './terminals';
import type { TreeViewSlot } from '../base/tree-view-slot';

/** What this feature needs of the client core (ClientCore of src/sync has all of it). */
export interface AssistantsFeatureCore {
  assistants: AssistantsView;
  cards: Pick<CardModelView, 'setScope' | 'get'> & Partial<Pick<CardModelView, 'whole' | 'unknownAsker' | 'added' | 'changed' | 'removed'>>;
  readonly state: ConnectionState;
  onDidChangeState: Event<ConnectionState>;
  presence?: PresenceControl;
  feed?: FeedOwnership;
}

export interface AssistantsFeature {
  matcher: TerminalMatcher;
  tree: AssistantsTree;
  scope: ScopeController;
  presence: PresenceReporter | undefined;
  /** For the card panel's "Go to terminal" and the card context menu. True when a terminal was shown. */
  focusTerminalForCard(card: Pick<CardListEntry, 'id'> & { assistant?: { id: string }; agent?: { id: string } }): Promise<boolean>;
  /** The enabled forms of its commands (commands.ts). */
  commands: {
    focusTerminal(arg?: unknown): Promise<boolean>;
    cardsOfActiveTerminal(arg?: unknown): Promise<void>;
    toggleScope(): Promise<void>;
  };
}

export function createAssistantsFeature(core: AssistantsFeatureCore, log: Log, view: TreeViewSlot<AssistantsTreeNode>, contextKeys: ContextKeys, connected?: ConnectedClisSource): AssistantsFeature & vscode.Disposable {
  const parts = new DisposableStore();
  const matcher = parts.add(new TerminalMatcher({
    assistants: () => core.assistants.list(),
    onDidChangeAssistants: core.assistants.changed,
    localMachineId: () => thisComputer(core.state),
  }, log));
  const tree = parts.add(new AssistantsTree(core.assistants, matcher, view, Date.now, connected));
  const scope = parts.add(new ScopeController(core.cards, matcher, log, contextKeys, {
    id: () => thisComputer(core.state), onDidChange: (f) => core.onDidChangeState(() => f()),
  }));
  const presence = core.presence
    ? parts.add(new PresenceReporter(core.presence, core.feed, () => core.state.kind === 'online', core.onDidChangeState, log))
    : undefined;
  parts.add(core.assistants.changed(() => tree.refresh()));
  const refresher = parts.add(new AssistantsRefresher(core, log));
  parts.add(core.onDidChangeState((s) => {
    if (s.kind === 'online') { refresher.now(); matcher.schedule(); }
  }));

  const show = (terminal: vscode.Terminal | undefined, what: string): boolean => {
    if (terminal) { terminal.show(false); return true; }
    void say.info(
      vscode.l10n.t('Assistant Cards: {0} does not run in a terminal of this window. Its live sessions are listed in the Assistants view.', what));
    return false;
  };

  const focusTerminalForCard: AssistantsFeature['focusTerminalForCard'] = async (card) => {
    let target: { assistant?: { id: string }; agent?: { id: string } } = card;
    if (!target.assistant && core.cards.whole) {
      try { target = await core.cards.whole(card.id); } catch (e) { log.warn(`focus terminal: ${(e as Error).message}`); }
    }
    // Asked on another computer: its terminal is there, and this window says so instead.
    const elsewhere = elsewhereName(target as CardListEntry, thisComputer(core.state));
    if (elsewhere) { void say.info(vscode.l10n.t('Assistant Cards: {0}', elsewhereNote(elsewhere))); return false; }
    if (!target.assistant) return show(undefined, vscode.l10n.t('The assistant that asked this card'));
    await matcher.rematch();
    return show(matcher.terminalFor({ assistantId: target.assistant.id, agentId: target.agent?.id }),
      vscode.l10n.t('The assistant that asked "{0}"', 'title' in card ? String(card.title) : card.id));
  };

  const focusTerminal = async (arg?: unknown): Promise<boolean> => {
    if (isTreeNode(arg)) {
      const terminal = arg.kind === 'session' ? matcher.terminalFor({ appSessionId: arg.appSessionId })
        : matcher.terminalFor({ assistantId: arg.assistantId, agentId: arg.kind === 'agent' ? arg.agentId : undefined });
      return show(terminal, vscode.l10n.t('This assistant'));
    }
    const target = focusTargetOf(arg);
    if (target.kind === 'ignored') {
      log.info(`focus terminal: ignored an argument that is neither a card id nor an Assistants view item (${target.what})`);
      return false;
    }
    if (target.kind === 'card') {
      // The card as this window holds it (the tree's node is one): an id it does not hold, from a
      // command link or another extension, reads nothing and shows nothing (#37).
      const entry = core.cards.get(target.id);
      if (!entry) { log.info(`focus terminal: ignored ${target.id}, a card this window does not hold`); return false; }
      return focusTerminalForCard(entry);
    }
    return pickAndFocus(core.assistants.list(), matcher);
  };

  const cardsOfActiveTerminal = async (arg?: unknown): Promise<void> => {
    // The terminal context menu passes the terminal it was opened on (or nothing).
    const terminal = arg && vscode.window.terminals.includes(arg as vscode.Terminal) ? arg as vscode.Terminal : undefined;
    await scope.cardsOfTerminal(terminal ?? vscode.window.activeTerminal);
  };

  const toggleScope = async (): Promise<void> => {
    const next = await scope.toggle();
    void vscode.window.setStatusBarMessage(next !== 'workspace'
      ? vscode.l10n.t('Assistant Cards: every card of this computer')
      : vscode.l10n.t('Assistant Cards: cards of the assistants in this window\'s terminals'), 3000);
  };

  const feature: AssistantsFeature & vscode.Disposable = {
    matcher, tree, scope, presence, focusTerminalForCard,
    commands: { focusTerminal, cardsOfActiveTerminal, toggleScope },
    dispose: () => parts.dispose(),
  };
  return feature;
}

/**
 * The change feed says nothing about assistants, so new live sessions are read (GET
 * /v1/assistants, ETag: mostly 304) when they are likely: a few seconds after a terminal opens (an
 * assistant started in it registers itself), when the window gains focus, once a minute while
 * it has focus, and when a card comes whose assistant is out of this window's scope (an assistant
 * CLI started in a terminal opened long before registers its session with its first hook: its
 * first card must not wait for the minute). One read a minute is a third of a percent of the
 * reads limit; the card-driven reads are at most one per UNKNOWN_ASKER_MS. And when a card of
 * an agent the view shows comes, goes, or turns to or from the person, its open count moved
 * (open-count.ts): read soon, so the view does not say "0 open cards" beside the card waiting.
 */
const UNKNOWN_ASKER_MS = 3_000;
/** A card's change and the next (its answer, its hold's end) come in runs: one read after the run. */
const OPEN_COUNT_SETTLE_MS = 500;

class AssistantsRefresher extends DisposableBase {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private lastAt = 0;
  /** A read for a moved open count is due: the changes before it are read with it. */
  private countReadDue = false;

  constructor(private readonly core: AssistantsFeatureCore, private readonly log: Log) {
    super();
    this._register(vscode.window.onDidOpenTerminal(() => { this.after(3000); this.after(10_000); }));
    this._register(vscode.window.onDidChangeWindowState((s) => { if (s.focused && Date.now() - this.lastAt > 10_000) this.now(); }));
    const periodic = setInterval(() => { if (vscode.window.state.focused) this.now(); }, 60_000);
    if (core.cards.unknownAsker) this._register(core.cards.unknownAsker(() => { if (Date.now() - this.lastAt > UNKNOWN_ASKER_MS) this.now(); }));
    const { added, changed, removed } = core.cards;
    if (added) this._register(added((c) => this.countMoved(openCountMovedFor(undefined, c))));
    if (changed) this._register(changed((e) => this.countMoved(openCountMovedFor(e.previous, e.card))));
    if (removed) this._register(removed((e) => this.countMoved(openCountMovedFor(e.previous, undefined))));
    this._register({ dispose: () => clearInterval(periodic) });
    this._register({ dispose: () => { for (const t of this.timers) clearTimeout(t); this.timers.clear(); } });
  }

  now(): void {
    this.countReadDue = false;
    if (this.core.state.kind !== 'online') return;
    this.lastAt = Date.now();
    this.core.assistants.refresh().catch((e: unknown) => this.log.debug(`assistants: refresh failed: ${String(e)}`));
  }

  /** An agent's open count moved: read once the run of changes settles, at most one read per UNKNOWN_ASKER_MS. */
  private countMoved(agentId: string | undefined): void {
    if (agentId === undefined || this.countReadDue) return;
    // Only a count the view shows: another agent's is read with the next read.
    if (!this.core.assistants.list().some((a) => a.agents.some((g) => g.id === agentId))) return;
    this.countReadDue = true;
    this.after(Math.max(OPEN_COUNT_SETTLE_MS, this.lastAt + UNKNOWN_ASKER_MS - Date.now()));
  }

  private after(ms: number): void {
    if (this.isDisposed) return;
    const t = setTimeout(() => { this.timers.delete(t); this.now(); }, ms);
    this.timers.add(t);
  }
}

function isTreeNode(x: unknown): x is Exclude<AssistantsTreeNode, { kind: 'cli' }> {
  const k = (x as { kind?: unknown } | undefined)?.kind;
  return (k === 'assistant' || k === 'agent' || k === 'session') && typeof (x as { assistantId?: unknown }).assistantId === 'string';
}

/** From the palette with nothing selected: pick one of the sessions that run in this window. */
async function pickAndFocus(assistants: readonly Assistant[], matcher: TerminalMatcher): Promise<boolean> {
  await matcher.rematch();
  const items: (vscode.QuickPickItem & { terminal: vscode.Terminal })[] = [];
  for (const a of assistants) {
    for (const g of a.agents) {
      for (const s of g.liveSessions) {
        const m = matcher.terminalOf(s.appSessionId);
        if (m) items.push({ label: plainText(`${a.name} / ${g.name}`, 120), description: vscode.l10n.t('terminal "{0}"', plainText(m.terminal.name, 60)), detail: plainText(s.cwd, 200), terminal: m.terminal });
      }
    }
  }
  if (items.length === 0) {
    void say.info(vscode.l10n.t('Assistant Cards: no live assistant runs in a terminal of this window.'));
    return false;
  }
  const pick = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Go to the terminal of…') });
  if (!pick) return false;
  pick.terminal.show(false);
  return true;
}

