// The live card model: what the person's views show. Filled by a full read (on start, every
// 10 minutes, on scope change) and kept current by the change feed, which refetches only the
// changed cards by id. Emits one event per card so a view updates one item. The lists are read
// by card-lists.ts, the cards by id by reads.ts, both on the session's one client.
import { ApiProblemError } from '../api/errors';
import { Emitter } from '../api/runtime';
import type { Logger } from '../api/runtime';
import type { Card, CardListEntry, CardStatus, Change } from '../api/schemas';
import { isLight } from './card-filter';
import { FilterMatch } from './card-filter-match';
import { isNotice, type CardListReader } from './card-lists';
import type { CardFilter } from './card-filter';
import { GROUPS } from './contract';
import type { CardChange, CardModelView, CardRemoval, CardScope, Counts, Group } from './contract';
import { CardHolds } from './card-holds';


const LIVE_STATUSES: CardStatus[] = ['pending', 'snoozed', 'delegated'];
/** Reading light rows whole stays under this share of a minute's reads (the person's included). */
export const ROWS_READ_SHARE = 0.5;

interface Entry {
  card: CardListEntry;
  group: Group;
}

/** Which group a card belongs in: waiting on you, waiting on the agent, Later, with a helper, done. */
export function groupOfCard(card: CardListEntry): Group {
  switch (card.status) {
    case 'snoozed':
      return 'snoozed';
    case 'delegated':
      return 'delegated';
    case 'done':
      return 'done';
    case 'answered':
      // A notice has no assistant: its Got it closes it (Done). An answer is held, then heard.
      return card.kind === 'update' ? 'done' : 'agent';
    default:
      return card.turn === 'you' ? 'pending' : 'agent';
  }
}

export interface CardModelOptions {
  /** Reads the lists of cards (card-lists.ts). */
  lists: Pick<CardListReader, 'read'>;
  logger: Logger;
  /** Ends the background reads (and their retry waits) when sync stops. */
  syncSignal: () => AbortSignal | undefined;
  /** Reads one card (the session coalesces them, budgets background ones and tells the person's from them). */
  readCard: (id: string, o: { byPerson: boolean; signal?: AbortSignal }) => Promise<Card>;
  /** What `refresh()` does (the session: a full read that reports offline/online). */
  refresh: () => Promise<void>;
  /** This computer's clock and how far the service's is off it: holds are kept on this computer's clock (hold.ts). */
  holdClock: { now(): number; skewMs(): number };
  /**
   * Waits before each read that fills a light row whole (the session: under half the minute's
   * reads, leaving the feed's burst room); default none.
   */
  beforeFillRead?: (signal?: AbortSignal) => Promise<void>;
}

export class CardModel implements CardModelView {
  private entries = new Map<string, Entry>();
  /** Stack position from the last full read; new cards go after (the sandbox appends them too). */
  private order = new Map<string, number>();
  private nextOrder = 0;
  private scope: CardScope = { kind: 'workspace', assistantIds: [] };
  private doneLoaded = false;
  private lastCounts: Counts = { waiting: 0, blockingWaiting: 0 };
  private readGeneration = 0;
  /** When each card was last set from a by-id read; a list read begun earlier must not undo it. */
  private touched = new Map<string, number>();
  private touchSeq = 0;
  /** The person's filter, and the ids the service listed for it (card-filter-match.ts). */
  private readonly filterMatch: FilterMatch;

  /** Each card's hold on this computer's clock, for the version it was set for (card-holds.ts). */
  private readonly holds: CardHolds;
  /**
   * Cards as a press left them, built here, not read: the read that follows is told as a change.
   * True: built whole, with what the service adds for the press (an answer's history line).
   */
  private provisional = new Map<string, boolean>();
  /** The loop reading light rows whole (one at a time), while it runs. */
  private filling: Promise<void> | undefined;
  /** Rows came light while the loop was ending: it runs once more. */
  private fillAgain = false;

  private readonly addedE = new Emitter<CardListEntry>();
  private readonly unknownAskerE = new Emitter<Card>();
  private readonly changedE = new Emitter<CardChange>();
  private readonly removedE = new Emitter<CardRemoval>();
  private readonly countsE = new Emitter<Counts>();
  private readonly scopeE = new Emitter<CardScope>();
  private readonly filterE = new Emitter<CardFilter>();
  readonly added = this.addedE.event;
  /**
   * A card read for a change and left out of workspace scope because its assistant is not one the
   * window knows of: a session may have just started in a terminal here (an assistant CLI's hook
   * registers it), so the assistants are worth reading again now, not at the next minute.
   */
  readonly unknownAsker = this.unknownAskerE.event;
  readonly changed = this.changedE.event;
  readonly removed = this.removedE.event;
  readonly countsChanged = this.countsE.event;
  /** The session re-reads when the scope changes. */
  readonly scopeChanged = this.scopeE.event;
  /** The filter changed, or the service's answer for it arrived: views show `matches` again. */
  readonly filterChanged = this.filterE.event;

  constructor(private readonly o: CardModelOptions) {
    this.holds = new CardHolds(o.holdClock);
    this.filterMatch = new FilterMatch({
      lists: o.lists, scope: () => this.scope, statuses: () => this.statuses(), changed: (f) => this.filterE.fire(f),
    });
  }

  list(group: Group): readonly CardListEntry[] {
    const cards = [...this.entries.values()].filter((e) => e.group === group).map((e) => e.card);
    switch (group) {
      case 'snoozed':
        return cards.sort((a, b) => cmpStr(untilOf(a), untilOf(b)) || this.cmpOrder(a, b));
      case 'done':
        return cards.sort((a, b) => cmpStr(changedOf(b), changedOf(a)) || this.cmpOrder(b, a));
      default:
        return cards.sort((a, b) => this.cmpOrder(a, b));
    }
  }

  /** Views count on every card added (a first read of 1,000 cards): one pass, no sorted list. */
  size(...groups: readonly Group[]): number {
    let n = 0;
    for (const e of this.entries.values()) if (groups.includes(e.group)) n++;
    return n;
  }

  get(id: string): CardListEntry | undefined {
    return this.entries.get(id)?.card;
  }

  /** When the card's hold (the 5 s to undo or take back) ends, on this computer's clock; undefined when none runs. */
  holdUntil(id: string): number | undefined {
    const card = this.entries.get(id)?.card;
    return card ? this.holds.untilOf(card) : undefined;
  }

  /** A hold the person started here has not ended on the feed yet (card-holds.ts): the feed reads for it. */
  awaitingHoldEnd(): boolean {
    return this.holds.awaitingEnd((id) => this.entries.get(id)?.card);
  }

  /**
   * The card a press left (press-path.ts), with its hold already on this computer's clock: it
   * replaces what the model held in one write, so every view moves at once.
   */
  takePressed(card: Card, holdUntil: number | undefined, whole = false): void {
    if (holdUntil !== undefined) this.holds.set(card, holdUntil, true);
    this.put(card, true);
    this.provisional.set(card.id, whole);
  }

  groupOf(id: string): Group | undefined {
    return this.entries.get(id)?.group;
  }

  counts(): Counts {
    return this.lastCounts;
  }

  getScope(): CardScope {
    return this.scope;
  }

  setScope(scope: CardScope): void {
    const was = this.scope;
    const same =
      (scope.kind === 'everywhere' && was.kind === 'everywhere') ||
      (scope.kind === 'machine' && was.kind === 'machine' && scope.machineId === was.machineId) ||
      (scope.kind === 'workspace' && was.kind === 'workspace' && sameSet(scope.assistantIds, was.assistantIds));
    if (same) return;
    this.scope = scope.kind === 'workspace' ? { kind: 'workspace', assistantIds: [...new Set(scope.assistantIds)] } : scope;
    this.scopeE.fire(this.scope);
  }

  getFilter(): CardFilter {
    return this.filterMatch.get();
  }

  /**
   * The person's filter. Sent to the service as the list's query filters (the person's read):
   * light entries (which carry no assistant, agent, area or computer) are judged by its answer;
   * whole cards are judged on their own fields at once.
   */
  setFilter(filter: CardFilter): Promise<void> {
    return this.filterMatch.set(filter);
  }

  /** Whether a card passes the person's filter. */
  matches(card: CardListEntry): boolean {
    return this.filterMatch.matches(card);
  }

  /** The statuses the model holds: the open ones, and done once it was asked for. */
  private statuses(): CardStatus[] {
    return this.doneLoaded ? [...LIVE_STATUSES, 'done'] : LIVE_STATUSES;
  }

  async refresh(): Promise<void> {
    await this.o.refresh();
  }

  async loadDone(): Promise<void> {
    this.doneLoaded = true;
    const since = this.touchSeq;
    const done = await this.o.lists.read('done', this.scope);
    this.applyRead(new Map(done.map((c) => [c.id, c])), new Set(['done']), since);
    await this.filterMatch.readAgain();
  }

  /** The whole card the model holds; undefined when it holds only the lighter form, or nothing. Never a read. */
  held(id: string): Card | undefined {
    const card = this.entries.get(id)?.card;
    return card && !isLight(card) ? card as Card : undefined;
  }

  /** The whole card: the one the model holds, read (the person's read) only when it holds the lighter form or none. */
  async whole(id: string): Promise<Card> {
    return this.held(id) ?? this.read(id);
  }

  /** The person's read of the card, always sent (ETag: an unchanged card costs a 304), kept by the model. */
  async read(id: string): Promise<Card> {
    const card = this.holds.onLocalClock(await this.readOne(id, true, undefined));
    this.upsert(card);
    return card;
  }

  /** Every status the groups need (done only once asked), paging through `next`. */
  async fullRead(): Promise<void> {
    const generation = ++this.readGeneration;
    const since = this.touchSeq;
    const statuses = this.statuses();
    const read = new Map<string, CardListEntry>();
    for (const status of statuses) {
      const cards = await this.o.lists.read(status, this.scope);
      for (const c of cards) read.set(c.id, c);
    }
    if (generation !== this.readGeneration) return; // a newer read (scope change) won
    this.applyRead(read, new Set(statuses), since);
    await this.filterMatch.readAgain();
  }

  /** Refetches only the cards the feed (or a press, `byPerson`) named; a card gone or out of reach is removed. */
  async applyChanges(changes: readonly Change[], o: { byPerson?: boolean } = {}): Promise<void> {
    const ids = [...new Set(changes.map((c) => c.cardId))];
    for (const id of ids) {
      if (this.isOwnAnswer(id, changes)) continue;
      try {
        const card = await this.readOne(id, o.byPerson ?? false, this.o.syncSignal());
        this.upsert(card);
      } catch (e) {
        if (e instanceof ApiProblemError && e.code === 'not_found') this.remove(id);
        else throw e;
      }
    }
  }

  /**
   * The card's only change is the `card.answered` of an answer pressed here, and the model holds
   * the card that answer built whole (takePressed; its history line and answer written as the
   * service writes them): reading it would bring the same card (#53: two reads per answer). The
   * hold's end, or any other change, is read.
   */
  private isOwnAnswer(id: string, changes: readonly Change[]): boolean {
    const held = this.entries.get(id)?.card;
    return held !== undefined && this.provisional.get(id) === true && this.holds.answeredHere(held)
      && changes.every((c) => c.cardId !== id || c.type === 'card.answered');
  }

  private async readOne(id: string, byPerson: boolean, signal: AbortSignal | undefined): Promise<Card> {
    return this.o.readCard(id, { byPerson, signal });
  }

  /** A whole card read elsewhere (a conflict's fresh card, a read by id). */
  upsert(read: Card): void {
    this.put(read, false);
  }

  private put(read: Card, pressedHere: boolean): void {
    const card = this.holds.onLocalClock(read);
    this.touched.set(card.id, ++this.touchSeq);
    if (!this.inScope(card) || (card.status === 'done' && !this.doneLoaded)) {
      if (this.scope.kind === 'workspace' && card.assistant && card.status !== 'done' && !isNotice(card)) this.unknownAskerE.fire(card);
      this.remove(card.id, false, card);
      return;
    }
    const prev = this.entries.get(card.id);
    const group = groupOfCard(card);
    if (!this.order.has(card.id)) this.order.set(card.id, this.nextOrder++);
    this.entries.set(card.id, { card, group });
    const wasBuilt = this.provisional.delete(card.id);
    if (!prev) this.addedE.fire(card);
    else if (wasBuilt || differs(prev.card, card) || prev.group !== group) this.changedE.fire({ card, previous: prev.card, ...(pressedHere ? { pressedHere } : {}) });
    this.updateCounts();
  }

  remove(id: string, fromRead = false, read?: Card): void {
    if (!fromRead) this.touched.set(id, ++this.touchSeq);
    const prev = this.entries.get(id);
    if (!prev) return;
    this.entries.delete(id);
    this.holds.delete(id);
    this.provisional.delete(id);
    this.removedE.fire({ id, previous: prev.card, ...(read ? { read } : {}) });
    this.updateCounts();
  }

  /** Signing out: forget everything the person saw. */
  clear(): void {
    for (const id of [...this.entries.keys()]) this.remove(id);
    this.order.clear();
    this.touched.clear();
    this.holds.clear();
    this.provisional.clear();
    this.filterMatch.forgetListed();
    this.doneLoaded = false;
  }

  dispose(): void {
    for (const e of [this.addedE, this.unknownAskerE, this.changedE, this.removedE, this.countsE, this.scopeE, this.filterE]) e.clear();
  }

  /** Replaces the cards of the statuses read, emitting only real differences. */
  private applyRead(read: Map<string, CardListEntry>, statuses: Set<string>, since: number): void {
    const newer = (id: string) => (this.touched.get(id) ?? 0) > since;
    // Cards of a status that was read but are no longer in it (and not found elsewhere) go,
    // unless the feed set them after this read began (the list is older than that).
    for (const [id, e] of [...this.entries]) {
      if (read.has(id) || newer(id)) continue;
      const st = e.card.status === 'answered' ? 'pending' : e.card.status;
      if (statuses.has(st) || !['pending', 'snoozed', 'delegated', 'done'].includes(st)) this.remove(id, true);
    }
    let i = 0;
    for (const card of read.values()) {
      if (card.status === 'pending' || card.status === 'answered') this.order.set(card.id, i++);
      if (newer(card.id)) continue;
      const prev = this.entries.get(card.id);
      // Keep a whole card we hold when the list only sent the lighter form of the same version.
      const keep = prev && prev.card.version === card.version && isLight(card) && !isLight(prev.card);
      const next = keep ? prev.card : withKnownAsker(this.holds.onLocalClock(card), prev?.card);
      const group = groupOfCard(next);
      if (!this.order.has(card.id)) this.order.set(card.id, this.nextOrder++);
      this.entries.set(card.id, { card: next, group });
      if (!prev) this.addedE.fire(next);
      else if (differs(prev.card, next) || prev.group !== group) this.changedE.fire({ card: next, previous: prev.card });
    }
    this.nextOrder = Math.max(this.nextOrder, i);
    this.updateCounts();
    this.fillWhole();
  }

  /**
   * Resolves once every row the model holds is whole (or the fill stopped: sync ended, a read
   * failed; the next full read starts it again). Tests wait on it.
   */
  async whenWhole(): Promise<void> {
    while (this.filling) await this.filling;
  }

  /**
   * Reads whole, by id, every row the list sent in the lighter form (past its first `whole`
   * cards), in the tree's order: a row then shows its asker, computer, severity and count as it
   * would read whole. A card held whole at the listed version is not read again, so only new or
   * changed cards cost a read (decisions.md "Every row whole").
   */
  private fillWhole(): void {
    if (this.filling) { this.fillAgain = true; return; }
    this.filling = this.fillLoop().finally(() => {
      this.filling = undefined;
      if (this.fillAgain) { this.fillAgain = false; this.fillWhole(); }
    });
  }

  private async fillLoop(): Promise<void> {
    const tried = new Set<string>();
    for (;;) {
      const next = this.nextLight(tried);
      if (!next) return;
      tried.add(`${next.id}@${next.version}`);
      const signal = this.o.syncSignal();
      try {
        await this.o.beforeFillRead?.(signal);
        const now = this.entries.get(next.id)?.card;
        if (!now || !isLight(now)) continue; // read whole meanwhile (the feed, the person), or gone
        this.upsert(await this.readOne(next.id, false, signal));
      } catch (e) {
        if (e instanceof ApiProblemError && e.code === 'not_found') { this.remove(next.id); continue; }
        // Offline, signed out, sync stopped: the rows stay as listed; the next full read goes on.
        this.o.logger.info('rows: reading light rows whole stopped', { error: String(e) });
        return;
      }
    }
  }

  /** The first light row in the tree's order not yet tried at its version. */
  private nextLight(tried: Set<string>): CardListEntry | undefined {
    for (const group of GROUPS) {
      for (const c of this.list(group)) if (isLight(c) && !tried.has(`${c.id}@${c.version}`)) return c;
    }
    return undefined;
  }

  private inScope(card: Card): boolean {
    const scope = this.scope;
    if (scope.kind === 'everywhere' || isNotice(card)) return true;
    // A card with no computer named is kept: the service listed it for this one.
    if (scope.kind === 'machine') return scope.machineId === undefined || card.machine === undefined || card.machine.id === scope.machineId;
    return card.assistant !== undefined && scope.assistantIds.includes(card.assistant.id);
  }

  private cmpOrder(a: CardListEntry, b: CardListEntry): number {
    return (this.order.get(a.id) ?? Number.MAX_SAFE_INTEGER) - (this.order.get(b.id) ?? Number.MAX_SAFE_INTEGER) || cmpStr(a.id, b.id);
  }

  private updateCounts(): void {
    let waiting = 0;
    let blockingWaiting = 0;
    for (const e of this.entries.values()) {
      if (e.group === 'pending' && e.card.status === 'pending') {
        waiting++;
        if (e.card.blocking) blockingWaiting++;
      }
    }
    if (waiting !== this.lastCounts.waiting || blockingWaiting !== this.lastCounts.blockingWaiting) {
      this.lastCounts = { waiting, blockingWaiting };
      this.countsE.fire(this.lastCounts);
    }
  }
}

/**
 * A light entry keeps who asked, once known from an earlier whole form of the same card (a
 * card's assistant, agent, area and computer never change): the views go on showing them.
 */
function withKnownAsker(card: CardListEntry, prev: CardListEntry | undefined): CardListEntry {
  if (!prev || !isLight(card)) return card;
  const known = prev as Card;
  const asker: Partial<Card> = {};
  if (known.assistant) asker.assistant = known.assistant;
  if (known.agent) asker.agent = known.agent;
  if (known.area) asker.area = known.area;
  if (known.machine) asker.machine = known.machine;
  return Object.keys(asker).length ? { ...card, ...asker } : card;
}

function differs(a: CardListEntry, b: CardListEntry): boolean {
  return a.version !== b.version || a.status !== b.status || a.turn !== b.turn || isLight(a) !== isLight(b);
}

function untilOf(c: CardListEntry): string {
  return 'until' in c && typeof c.until === 'string' ? c.until : '';
}
function changedOf(c: CardListEntry): string {
  return 'changedAt' in c && typeof c.changedAt === 'string' ? c.changedAt : '';
}
function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const s = new Set(a);
  return s.size === new Set(b).size && b.every((x) => s.has(x));
}
