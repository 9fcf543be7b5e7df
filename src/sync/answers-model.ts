// The Answers view's data: the cards of the service's `done` list (last 30 days, newest first)
// read page by page with their history; the open cards put off, handed over or undone in those 30
// days (the `snoozed`, `delegated` and `pending` lists, read whole once per first page); and the
// cards the card model sees answered or closed while the view is open (kept live from the change
// feed). A search reads on through the done list until the 30 days are read (stoppable). The
// lists are read in small slices whose every card comes whole (`limit` = `whole` = 3: one read
// per three cards, with their history, instead of one list read and a read per light card); a
// card that still comes light is read by id. Every read waits its turn in the read budget
// (beforeRead): the Answers view stays under half of a minute's reads, a search reading on under
// less (ANSWERS_SCAN_SHARE), so a page the person asks for meanwhile still goes at once. What the service refuses is kept as a problem the view tells.
import type { ApiClient } from '../api/client';
import { ApiProblemError, OAuthRefusalError } from '../api/errors';
import { AbortedError, Emitter } from '../api/runtime';
import type { Logger } from '../api/runtime';
import type { Card, CardListEntry } from '../api/schemas';
import type { AnswerRow, AnswerSearch } from './answer-rows';
import { decidedSince, isSearchEmpty, newestFirst, rowMatches, rowOf } from './answer-rows';
import { isLight } from './card-filter';
import type { AnswersProblem, AnswersView, CardEvents, SearchProgress } from './contract';
import { Lifetime } from './lifetime';

/** Cards per list read: as many as the service sends whole (`whole` is at most 3). */
const SLICE = 3;
/** Rows a page adds (first page, and each "Load more"). */
export const ANSWERS_PAGE = 24;
/** The Answers view's reads stay under this share of a minute's read allowance. */
export const ANSWERS_READ_SHARE = 0.5;
/** A search reading on stays under this share: the rest of the half is room for the person's own pages. */
export const ANSWERS_SCAN_SHARE = 0.4;
/** The days the done list covers (spec "Limits"), and so the view. */
export const ANSWERS_DAYS = 30;
const DAY_MS = 86_400_000;
/** Where cards put off, handed over or undone live: still open, so not in `done`. */
const OPEN_LISTS = ['snoozed', 'delegated', 'pending'] as const;

export interface AnswersModelOptions {
  api: ApiClient;
  /** The card model: a card answered or closed while the view is open refreshes its row. */
  cards: Pick<CardEvents, 'changed' | 'removed' | 'added'>;
  /**
   * Waits until an Answers read fits the budget; `background`: a live refresh nobody asked for;
   * `scan`: a search reading on through the 30 days (a smaller share).
   */
  beforeRead(o: { background: boolean; scan?: boolean; signal?: AbortSignal }): Promise<void>;
  logger: Logger;
  pageSize?: number;
  /** This computer's clock (ms), for the 30 days of open cards and the search's progress. */
  now?: () => number;
}

const LIVE_STATUSES = new Set(['answered', 'done', 'snoozed', 'delegated']);

export class AnswersModel implements AnswersView {
  private rows = new Map<string, AnswerRow>();
  private sorted: AnswerRow[] | undefined;
  /** The done list's continuation: undefined before the first read, null at its end. */
  private next: string | null | undefined;
  private isStarted = false;
  private inFlight: Promise<void> | undefined;
  private inFlightSignal: AbortSignal | undefined;
  private search: AnswerSearch = {};
  private refused: AnswersProblem[] = [];
  private abort = new AbortController();
  private generation = 0;
  private readonly changedE = new Emitter<{ ids?: readonly string[] }>();
  readonly changed = this.changedE.event;
  /** The listeners on the card model, ended with this model. */
  private readonly lifetime = new Lifetime();
  /** Rows from the open lists: shown once the done list read reaches their time (newest first, no gap). */
  private openIds = new Set<string>();
  /** The oldest step time (ms) among the done list's rows read: how far back the list is read. */
  private reach: number | undefined;
  /** The search reading on; `stopped`: the person stopped it. */
  private scan: AbortController | undefined;
  private scanStopped = false;

  constructor(private readonly o: AnswersModelOptions) {
    // Live: a card answered, handed over, put off or closed while the view has read its rows.
    // A card the model lists (a full read) is not news: a row only when it came whole, never a read.
    this.lifetime.add(o.cards.added((card) => this.onCard(card, false)));
    this.lifetime.add(o.cards.changed(({ card }) => this.onCard(card, true)));
    // A card that closes leaves the card model (Done is read only when asked): read it here.
    // The card model's own read that took it out comes along: no second read of it.
    this.lifetime.add(o.cards.removed(({ id, previous, read }) => {
      if (!this.isStarted) return;
      if (read) this.onCard(read, false);
      else if (this.rows.has(id) || previous.status === 'answered' || previous.turn === 'agent') void this.refreshOne(id);
    }));
  }

  visible(): readonly AnswerRow[] {
    const all = this.all();
    return isSearchEmpty(this.search) ? all : all.filter((r) => rowMatches(r, this.search));
  }

  all(): readonly AnswerRow[] {
    this.sorted ??= [...this.rows.values()].filter((r) => this.inReach(r)).sort(newestFirst);
    return this.sorted;
  }

  /** An open card's row waits until the done list is read back to its time (else pages would slot in above it). */
  private inReach(r: AnswerRow): boolean {
    if (!this.openIds.has(r.id) || this.next === null) return true;
    return this.reach !== undefined && r.at !== undefined && Date.parse(r.at) >= this.reach;
  }

  private now(): number { return this.o.now?.() ?? Date.now(); }

  get(id: string): AnswerRow | undefined { return this.rows.get(id); }
  started(): boolean { return this.isStarted; }
  loading(): boolean { return this.inFlight !== undefined; }
  hasMore(): boolean { return this.next !== null; }
  problems(): readonly AnswersProblem[] { return this.refused; }
  getSearch(): AnswerSearch { return this.search; }

  setSearch(s: AnswerSearch): void {
    this.search = s;
    this.scanStopped = false;
    if (isSearchEmpty(s)) this.scan?.abort();
    this.changedE.fire({});
    if (!isSearchEmpty(s)) void this.searchFurther();
  }

  searchProgress(): SearchProgress | undefined {
    if (isSearchEmpty(this.search)) return undefined;
    return { running: this.scan !== undefined, stopped: this.scanStopped, daysRead: this.daysRead(), days: ANSWERS_DAYS };
  }

  readProgress(): { daysRead: number; days: number; whole: boolean } {
    return { daysRead: this.daysRead(), days: ANSWERS_DAYS, whole: this.next === null };
  }

  private daysRead(): number {
    if (this.next === null) return ANSWERS_DAYS;
    return this.reach === undefined ? 0 : Math.max(0, Math.min(ANSWERS_DAYS, Math.floor((this.now() - this.reach) / DAY_MS)));
  }

  async readAll(o: { signal: AbortSignal; scan?: boolean }): Promise<boolean> {
    if (!this.isStarted) await this.loadFirst();
    const generation = this.generation;
    const parent = this.abort.signal;
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    parent.addEventListener('abort', onAbort, { once: true });
    o.signal.addEventListener('abort', onAbort, { once: true });
    if (o.signal.aborted) stop.abort();
    // Asked again after a refusal: from where it stopped; the problem goes once the page answers.
    this.refused = this.refused.filter((p) => p.what !== 'page');
    try {
      while (!stop.signal.aborted && generation === this.generation && this.next !== null) {
        if (this.inFlight) { await this.inFlight; continue; }
        await this.page(generation, stop.signal, { scan: o.scan ?? false });
        if (this.refused.some((p) => p.what === 'page')) break;
      }
    } finally {
      parent.removeEventListener('abort', onAbort);
      o.signal.removeEventListener('abort', onAbort);
    }
    return !stop.signal.aborted && generation === this.generation && this.next === null;
  }

  stopSearching(): void {
    if (!this.scan) return;
    this.scanStopped = true;
    this.scan.abort();
  }

  /**
   * Reads on, page after page, until the done list's 30 days are read, the search is cleared or
   * stopped, or the service refuses a page (told as a problem). Every read waits its turn in the
   * budget like any other Answers read (under half of a minute's reads).
   */
  async searchFurther(): Promise<void> {
    if (this.scan || !this.isStarted || isSearchEmpty(this.search) || this.next === null) return;
    const stop = this.scan = new AbortController();
    const generation = this.generation;
    this.scanStopped = false;
    // Asked again after a refusal: from where it stopped; the problem goes once the page answers.
    this.refused = this.refused.filter((p) => p.what !== 'page');
    const parent = this.abort.signal;
    const onAbort = () => stop.abort();
    parent.addEventListener('abort', onAbort, { once: true });
    this.changedE.fire({});
    try {
      while (!stop.signal.aborted && generation === this.generation && this.next !== null && !isSearchEmpty(this.search)) {
        if (this.inFlight) { await this.inFlight; continue; }
        await this.page(generation, stop.signal, { scan: true });
        // A refused page stops it (told above the rows); Load more or the search again asks again.
        if (this.refused.some((p) => p.what === 'page')) break;
      }
    } finally {
      parent.removeEventListener('abort', onAbort);
      if (this.scan === stop) this.scan = undefined;
      this.changedE.fire({});
    }
  }

  async loadFirst(): Promise<void> {
    // A new first read: what an older one brings is dropped.
    this.abort.abort();
    this.abort = new AbortController();
    this.scan = undefined;
    const generation = ++this.generation;
    this.isStarted = true;
    this.next = undefined;
    this.reach = undefined;
    this.refused = [];
    this.rows.clear();
    this.openIds.clear();
    this.sorted = undefined;
    this.changedE.fire({});
    this.inFlight = undefined;
    await this.page(generation, this.abort.signal, { first: true });
    if (generation === this.generation && !isSearchEmpty(this.search)) void this.searchFurther();
  }

  async loadMore(): Promise<void> {
    // A page under way is this one (a second press adds nothing), unless it is a stopped search's.
    if (this.inFlight && !this.inFlightSignal?.aborted) return this.inFlight;
    if (this.inFlight) await this.inFlight;
    if (this.inFlight) return this.inFlight;
    if (this.next === null) return;
    // A refused page is asked again from where it stopped; its problem goes once it answers.
    this.refused = this.refused.filter((p) => p.what !== 'page');
    await this.page(this.generation, this.abort.signal);
  }

  /** One page of the done list; the first also reads the open lists. Never throws. */
  private page(generation: number, signal: AbortSignal, o: { first?: boolean; scan?: boolean } = {}): Promise<void> {
    const run = (async () => {
      try {
        await this.readPage(generation, signal, o.scan ?? false);
        if (o.first && generation === this.generation) await this.readOpen(generation, signal);
      } catch (e) {
        if (!(e instanceof AbortedError)) throw e;
      }
    })().finally(() => {
      if (this.inFlight === run) this.inFlight = undefined;
      if (generation === this.generation) this.changedE.fire({});
    });
    this.inFlight = run;
    this.inFlightSignal = signal;
    this.changedE.fire({}); // "loading" shows
    return run;
  }

  private async readPage(generation: number, signal: AbortSignal, scan: boolean): Promise<void> {
    const want = this.o.pageSize ?? ANSWERS_PAGE;
    let got = 0;
    while (got < want && this.next !== null) {
      let list: { cards: CardListEntry[]; next?: string | null };
      try {
        await this.o.beforeRead({ background: false, scan, signal });
        list = await this.o.api.listCards({ status: 'done', limit: SLICE, whole: SLICE, ...(this.next ? { after: this.next } : {}) }, { signal, byPerson: true });
      } catch (e) {
        if (e instanceof AbortedError || generation !== this.generation) return;
        this.refused.push({ what: 'page', code: codeOf(e), message: messageOf(e) });
        this.o.logger.warn('answers: a page of done cards was refused', { error: messageOf(e) });
        return;
      }
      if (generation !== this.generation) return;
      for (const entry of list.cards) {
        const card = isLight(entry) ? await this.readWhole(entry, { background: false, scan, signal }) : entry;
        if (generation !== this.generation) return;
        this.put(card);
        const at = this.rows.get(card.id)?.at;
        if (at !== undefined && Number.isFinite(Date.parse(at))) this.reach = Math.min(this.reach ?? Infinity, Date.parse(at));
        got++;
      }
      this.next = list.next ?? null;
      this.sorted = undefined; // the reach moved: open rows may show
    }
  }

  /**
   * The open cards (Later, with a helper, waiting again after an undo): each list read whole in
   * slices like the done list; a card is a row when a deciding step of it falls in the 30 days.
   */
  private async readOpen(generation: number, signal: AbortSignal): Promise<void> {
    const since = this.now() - ANSWERS_DAYS * DAY_MS;
    for (const status of OPEN_LISTS) {
      let after: string | undefined;
      do {
        let list: { cards: CardListEntry[]; next?: string | null };
        try {
          await this.o.beforeRead({ background: false, signal });
          list = await this.o.api.listCards({ status, limit: SLICE, whole: SLICE, ...(after ? { after } : {}) }, { signal, byPerson: true });
        } catch (e) {
          if (e instanceof AbortedError || generation !== this.generation) throw new AbortedError();
          this.refused.push({ what: 'open', code: codeOf(e), message: messageOf(e) });
          this.o.logger.warn(`answers: the ${status} list was refused`, { error: messageOf(e) });
          break;
        }
        if (generation !== this.generation) return;
        for (const entry of list.cards) {
          const card = isLight(entry) ? await this.readWhole(entry, { background: false, signal }) : entry;
          if (generation !== this.generation) return;
          const row = rowOf(card);
          if (!this.rows.has(card.id) && decidedSince(row, since)) {
            this.rows.set(card.id, row);
            this.openIds.add(card.id);
            this.sorted = undefined;
          }
        }
        after = list.next ?? undefined;
      } while (after);
    }
  }

  /** The whole card (its history) by id; on refusal the light row stays and the problem is kept. */
  private async readWhole(entry: CardListEntry, o: { background: boolean; scan?: boolean; signal?: AbortSignal }): Promise<CardListEntry> {
    try {
      await this.o.beforeRead(o);
      return await this.o.api.getCard(entry.id, { signal: o.signal, byPerson: !o.background });
    } catch (e) {
      if (e instanceof AbortedError) throw e;
      this.refused.push({ what: 'card', id: entry.id, code: codeOf(e), message: messageOf(e) });
      return entry;
    }
  }

  private put(card: CardListEntry): void {
    this.rows.set(card.id, rowOf(card));
    // Open or done as the card says, whoever brings it: the card model may tell of an open card
    // while the first page is read, before the open lists are (its row would show above older pages).
    if (card.status === 'done') this.openIds.delete(card.id);
    else this.openIds.add(card.id);
    this.sorted = undefined;
  }

  /** A card the card model holds changed: its row, from the whole card when the model has it (else read, unless light). */
  private onCard(card: CardListEntry, mayRead: boolean): void {
    if (!this.isStarted || !(LIVE_STATUSES.has(card.status) || this.rows.has(card.id))) return;
    if (!isLight(card) && (card as Card).history) {
      // A card a press just built has no step for the press yet (the read after it brings one):
      // no row that tells nothing decided.
      if (rowOf(card).outcome === 'asked' && !this.rows.has(card.id)) return;
      this.put(card);
      this.changedE.fire({ ids: [card.id] });
    } else if (mayRead && !isLight(card)) void this.refreshOne(card.id);
    // A light card (a full read listed a new version) is not read here: the card model reads it
    // whole itself (fillWhole) and tells that as a change, which makes the row.
  }

  /** Reads one card again (background: nobody asked): its row changes, or goes when the card is gone. */
  private async refreshOne(id: string): Promise<void> {
    const generation = this.generation;
    try {
      await this.o.beforeRead({ background: true, signal: this.abort.signal });
      const card = await this.o.api.getCard(id, { signal: this.abort.signal, byPerson: false });
      if (generation !== this.generation) return;
      if (card.status === 'pending' && !this.rows.has(id) && !(card.history ?? []).some((h) => h.type === 'undone')) return;
      this.put(card);
      this.changedE.fire({ ids: [id] });
    } catch (e) {
      if (e instanceof AbortedError || generation !== this.generation) return;
      if (e instanceof ApiProblemError && e.code === 'not_found') {
        // Gone or out of reach: no row for it.
        if (this.rows.delete(id)) { this.sorted = undefined; this.changedE.fire({}); }
        return;
      }
      this.o.logger.warn('answers: a card could not be read again', { error: messageOf(e) });
    }
  }

  /** Signing out: nothing the person saw stays. */
  clear(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.scan = undefined;
    this.scanStopped = false;
    this.generation++;
    this.isStarted = false;
    this.next = undefined;
    this.reach = undefined;
    this.openIds.clear();
    this.rows.clear();
    this.sorted = undefined;
    this.refused = [];
    this.inFlight = undefined;
    this.changedE.fire({});
  }

  dispose(): void {
    this.abort.abort();
    this.lifetime.dispose();
    this.changedE.clear();
  }
}

function codeOf(e: unknown): string {
  if (e instanceof ApiProblemError) return e.code;
  if (e instanceof OAuthRefusalError) return e.error;
  return e instanceof Error && 'kind' in e ? String((e as { kind: unknown }).kind) : 'error';
}

function messageOf(e: unknown): string {
  if (e instanceof ApiProblemError) return e.detail || e.title || e.code;
  return e instanceof Error ? e.message : String(e);
}
