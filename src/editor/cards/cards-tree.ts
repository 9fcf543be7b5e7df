// The cards tree (`assistantCards.cards`): five groups, stable ids, getParent for reveal, and
// one item refreshed when one card changes. The badge shows how many cards wait on the person.
import * as vscode from 'vscode';
import { say } from '../base/say';
import type { CardListEntry } from '../../api/schemas';
import { GROUPS, groupOfCard, LIVE_GROUPS, type CardFilter, type CardModelView, type Group } from '../../sync';
import { DisposableBase } from '../base/disposable';
import { isFilterEmpty } from '../../sync';
import { lookOf } from '../../shared/card-view';
import { computerWords } from '../../shared/card-computer';
import { spokenCard, spokenGoneCard, spokenGroup } from '../../shared/spoken';
import { CardRowWords } from '../../shared/card-row-words';
import type { Log } from '../base/log';
import type { TreeViewSlot } from '../base/tree-view-slot';


const groupLabels = (): Record<Group, string> => ({
  pending: vscode.l10n.t('Waiting on you'),
  agent: vscode.l10n.t('Waiting on the assistant'),
  snoozed: vscode.l10n.t('Later'),
  delegated: vscode.l10n.t('With a helper'),
  done: vscode.l10n.t('Done (30 days)'),
});

/** The minute of a clock reading: a kept card item is built again when it turns. */
const minuteOf = (ms: number): number => Math.floor(ms / 60_000);

export interface GroupNode { kind: 'group'; group: Group }
export interface CardNode { kind: 'card'; id: string }
/** The row above the groups while the service does not answer (the cards below are as last read). */
export interface OfflineNode { kind: 'offline' }
export type Node = GroupNode | CardNode | OfflineNode;

const COLORS: Record<string, string> = {
  red: 'charts.red', yellow: 'charts.yellow', blue: 'charts.blue', green: 'charts.green', gray: 'disabledForeground',
};

export class CardsTree extends DisposableBase implements vscode.TreeDataProvider<Node> {
  private readonly emitter = this._register(new vscode.EventEmitter<Node | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  readonly view: vscode.TreeView<Node>;
  private readonly groupNodes = new Map<Group, GroupNode>(GROUPS.map((g) => [g, { kind: 'group', group: g }]));
  private readonly cardNodes = new Map<string, CardNode>();
  private readonly offlineNode: OfflineNode = { kind: 'offline' };
  /** When the service stopped answering; undefined while it answers. */
  private offlineSince: number | undefined;
  private doneLoaded = false;
  /** The last read of Done failed: only the person (Retry, expanding it again) asks again. */
  private doneFailed = false;
  /** Items showing Undo (`card:held`): redrawn when their hold ends, so Undo goes with it. */
  private readonly holdTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /**
   * Each card's item as last built. VS Code asks a refreshed group for all its children again, so a
   * card entering or leaving a group would rebuild every other card's item of it: one is reused
   * while its card is the very object it was built from (the model makes a new one for each
   * change) and the clock is in the same minute (its "how long ago" words).
   */
  private readonly cardItems = new Map<string, { card: CardListEntry; minute: number; item: vscode.TreeItem }>();
  /** Each card's plain words, made once per card version: an item built again (a new minute) makes only the clock's words. */
  private readonly rowWords = new CardRowWords();
  /** How many tree items were built since the last reset (a reused card item is not): the bench's figures. */
  renderedItems = 0;

  constructor(
    private readonly model: CardModelView,
    private readonly log: Log,
    /** The `assistantCards.cards` view, made once for the extension's life; this tree is its source while it lives. */
    slot: TreeViewSlot<Node>,
    /** True while signed in (online or offline with what was read): otherwise the tree is empty so the welcome view shows. */
    private readonly showing: () => boolean = () => true,
    /** Whether rows name their computer (every computer's cards show), and which one is this. */
    private readonly computers?: { named(): boolean; thisId(): string | undefined },
  ) {
    super();
    this.view = slot.view;
    this._register(slot.show(this));
    this._register(model.added((c) => {
      // The first card replaces the "nothing waits" welcome with the groups.
      if (this.openCount() <= 1) this.emitter.fire(undefined); else this.refreshGroup(groupOfCard(c));
    }));
    this._register(model.removed(({ id, previous }) => {
      this.cardNodes.delete(id);
      this.cardItems.delete(id);
      this.rowWords.forget(id);
      // The last open card gone: the root empties so the "nothing waits" welcome shows.
      if (this.openCount() === 0) this.emitter.fire(undefined); else this.refreshGroup(groupOfCard(previous));
    }));
    this._register(model.changed(({ card, previous }) => {
      const before = groupOfCard(previous);
      const now = groupOfCard(card);
      if (before === now) this.emitter.fire(this.cardNode(card.id));
      else { this.refreshGroup(before); this.refreshGroup(now); }
    }));
    this._register(model.countsChanged((c) => this.updateBadge(c.waiting)));
    // The filter changed, or the service listed the cards that match it: every group again.
    this._register(model.filterChanged((f) => {
      this.view.description = isFilterEmpty(f) ? undefined : vscode.l10n.t('filtered');
      this.emitter.fire(undefined);
    }));
    this._register(this.view.onDidExpandElement((e) => {
      if (e.element.kind === 'group' && e.element.group === 'done' && !this.doneLoaded) void this.loadDone();
    }));
    this.updateBadge(model.counts().waiting);
  }

  /** Cards in the open groups (all but Done). */
  private openCount(): number {
    return this.model.size(...LIVE_GROUPS);
  }

  private updateBadge(waiting: number): void {
    this.view.badge = waiting > 0
      ? { value: waiting, tooltip: waiting === 1 ? vscode.l10n.t('1 card waits on you') : vscode.l10n.t('{0} cards wait on you', waiting) }
      : undefined;
    // The group label carries its count: refresh just that group row.
    this.emitter.fire(this.groupNodes.get('pending'));
  }

  private refreshGroup(g: Group | undefined): void {
    this.emitter.fire(g ? this.groupNodes.get(g) : undefined);
  }

  private cardNode(id: string): CardNode {
    let n = this.cardNodes.get(id);
    if (!n) { n = { kind: 'card', id }; this.cardNodes.set(id, n); }
    return n;
  }

  /**
   * Whether `arg` is the very node object this tree handed to VS Code: what a command receives
   * when the person used this tree's menus. A look-alike object from elsewhere is not.
   */
  owns(arg: unknown): arg is CardNode {
    return typeof arg === 'object' && arg !== null && this.cardNodes.get((arg as Partial<CardNode>).id ?? '') === arg;
  }

  /** The node of a card, as the tree's menus pass it (for tests that stand in for the person). */
  nodeOf(id: string): CardNode | undefined {
    return this.model.get(id) ? this.cardNode(id) : undefined;
  }

  private async loadDone(): Promise<void> {
    this.doneLoaded = true;
    this.doneFailed = false;
    try {
      await this.model.loadDone();
    } catch (e) {
      // Not refreshed on failure: a refresh would ask again at once, and again (offline, a 4xx).
      this.doneLoaded = false;
      this.doneFailed = true;
      this.log.warn(`loading done cards failed: ${String(e)}`);
      void say.warn(vscode.l10n.t('Assistant Cards: could not load the Done cards ({0}).', (e as Error).message ?? String(e)), vscode.l10n.t('Retry'))
        .then((x) => { if (x) void this.loadDone(); });
      return;
    }
    this.refreshGroup('done');
  }

  /** Shows the cards that pass `f`; resolves once the service listed them (the model judges, see card-filter.ts). */
  setFilter(f: CardFilter): Promise<void> {
    return this.model.setFilter(f);
  }

  getFilter(): CardFilter { return this.model.getFilter(); }

  /** Offline since `since` (shows the row at the top), or undefined once the service answers again. */
  setOffline(since: number | undefined): void {
    if (since === this.offlineSince) return;
    this.offlineSince = since;
    this.emitter.fire(undefined);
  }

  isOffline(): boolean { return this.offlineSince !== undefined; }

  /** Every row built again: what a row shows beside its card changed (connection, sign-in, scope's computer names). */
  refreshAll(): void {
    // Signed out: Done is read again (for the next sign-in) when next expanded.
    if (!this.showing()) this.doneLoaded = false;
    // A kept item knows only its card and minute, not the rest (a row names its computer or not).
    this.cardItems.clear();
    this.emitter.fire(undefined);
  }

  visible(group: Group): CardListEntry[] {
    return this.model.list(group).filter((c) => this.model.matches(c));
  }

  getChildren(el?: Node): Node[] {
    if (!el) {
      // Empty while signed out / not set up, and when nothing is in any open group, so the
      // matching welcome view (package.json viewsWelcome) shows instead.
      if (!this.showing()) return [];
      // No cards: the offline welcome says it. With cards: the offline row above them.
      if (this.openCount() === 0) return [];
      const groups = GROUPS.map((g): Node => this.groupNodes.get(g)!);
      return this.offlineSince !== undefined ? [this.offlineNode, ...groups] : groups;
    }
    if (el.kind === 'card' || el.kind === 'offline') return [];
    if (el.group === 'done' && !this.doneLoaded) {
      // Loaded on expand; getChildren is called on expand, so kick it off here too.
      if (!this.doneFailed) void this.loadDone();
      return [];
    }
    return this.visible(el.group).map((c) => this.cardNode(c.id));
  }

  getParent(el: Node): Node | undefined {
    if (el.kind !== 'card') return undefined;
    const g = this.model.groupOf(el.id);
    return g ? this.groupNodes.get(g) : undefined;
  }

  getTreeItem(el: Node): vscode.TreeItem {
    const kept = el.kind === 'card' ? this.keptItem(el.id) : undefined;
    if (kept) return kept;
    this.renderedItems++;
    if (el.kind === 'offline') return this.offlineItem();
    if (el.kind === 'group') {
      const n = el.group === 'done' && !this.doneLoaded ? undefined : this.visible(el.group).length;
      const item = new vscode.TreeItem(
        groupLabels()[el.group],
        el.group === 'pending' || el.group === 'agent'
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed,
      );
      item.id = `group:${el.group}`;
      item.description = n === undefined ? undefined : String(n);
      item.contextValue = `group:${el.group}`;
      item.accessibilityInformation = { label: spokenGroup(groupLabels()[el.group], n) };
      return item;
    }
    const card = this.model.get(el.id);
    const item = new vscode.TreeItem(vscode.l10n.t('(gone)'), vscode.TreeItemCollapsibleState.None);
    item.id = `card:${el.id}`;
    item.accessibilityInformation = { label: spokenGoneCard() };
    if (!card) return item;
    const now = Date.now();
    const words = this.rowWords.of(card);
    const look = lookOf(card, now, undefined, words.look);
    const on = this.computers?.named() ? computerWords(card, this.computers.thisId()) : undefined;
    item.label = look.label;
    item.description = on ? [look.description, on.short].filter(Boolean).join(' · ') : look.description;
    item.tooltip = on ? `${look.tooltip}\n${on.tip}` : look.tooltip; // plain string: card text is untrusted, never markdown here
    item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(COLORS[look.color]!) : undefined);
    item.contextValue = look.contextValue;
    if (/\bcard:held\b/.test(look.contextValue)) this.redrawWhenHoldEnds(card);
    const spoken = spokenCard(card, now, undefined, words.spoken);
    item.accessibilityInformation = { label: on ? `${spoken}. ${on.tip}` : spoken };
    item.command = { command: 'assistantCards.openCard', title: vscode.l10n.t('Open card'), arguments: [this.cardNode(el.id)] };
    this.cardItems.set(el.id, { card, minute: minuteOf(now), item });
    return item;
  }

  /** The card's item as last built, while its card is the same object and the minute the same. */
  private keptItem(id: string): vscode.TreeItem | undefined {
    const kept = this.cardItems.get(id);
    return kept && kept.card === this.model.get(id) && kept.minute === minuteOf(Date.now()) ? kept.item : undefined;
  }

  private offlineItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Offline: cards as last read'), vscode.TreeItemCollapsibleState.None);
    item.id = 'offline';
    const since = this.offlineSince !== undefined ? new Date(this.offlineSince).toLocaleTimeString(vscode.env.language, { hour: '2-digit', minute: '2-digit' }) : '';
    item.description = since ? vscode.l10n.t('since {0}', since) : undefined;
    item.tooltip = vscode.l10n.t('The service does not answer. The cards below are as last read; this goes by itself once it answers again.');
    item.iconPath = new vscode.ThemeIcon('debug-disconnect', new vscode.ThemeColor('list.warningForeground'));
    item.contextValue = 'offline';
    item.command = { command: 'assistantCards.refresh', title: vscode.l10n.t('Try again') };
    item.accessibilityInformation = {
      label: since
        ? vscode.l10n.t('Offline since {0}: the cards below are as last read. Activate to try again.', since)
        : vscode.l10n.t('Offline: the cards below are as last read. Activate to try again.'),
    };
    return item;
  }

  private redrawWhenHoldEnds(card: CardListEntry): void {
    const end = 'undoUntil' in card && typeof card.undoUntil === 'string' ? Date.parse(card.undoUntil) : NaN;
    if (Number.isNaN(end)) return;
    clearTimeout(this.holdTimers.get(card.id));
    this.holdTimers.set(card.id, setTimeout(() => {
      this.holdTimers.delete(card.id);
      // The same card object, now past its hold: its item is built again, without Undo.
      this.cardItems.delete(card.id);
      if (!this.isDisposed && this.model.get(card.id)) this.emitter.fire(this.cardNode(card.id));
    }, Math.max(0, end - Date.now()) + 50));
  }

  override dispose(): void {
    for (const t of this.holdTimers.values()) clearTimeout(t);
    this.holdTimers.clear();
    super.dispose();
  }

  // The view outlives this tree: the slot clears the badge and "filtered" when this tree lets go of it.

  async reveal(id: string): Promise<void> {
    if (!this.model.get(id)) return;
    await this.view.reveal(this.cardNode(id), { select: true, focus: false, expand: true });
  }
}
