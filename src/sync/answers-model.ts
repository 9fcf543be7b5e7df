// The Answers view's data: the cards of the service's `done` list (last 30 days, newest first)
// read page by page with their history, plus the cards the card model sees answered or closed
// while the view is open (kept live from the change feed). The list is read in small slices
// whose every card comes whole (`limit` = `whole` = 3: one read per three cards, with their
// history, instead of one list read and a read per light card); a card that still comes light is
// read by id. Every read waits its turn in the read budget (beforeRead): the Answers view stays
// under half of a minute's reads. What the service refuses is kept as a problem the view tells.
import type { ApiClient } from '../api/client';
import { ApiProblemError, OAuthRefusalError } from '../api/errors';
import { AbortedError, Emitter } from '../api/runtime';
import type { Logger } from '../api/runtime';
import type { Card, CardListEntry } from '../api/schemas';
import type { AnswerRow, AnswerSearch } from './answer-rows';
import { isSearchEmpty, newestFirst, rowMatches, rowOf } from './answer-rows';
import { isLight } from './card-filter';
import type { CardEvents, Event } from './contract';

/** Cards per list read: as many as the service sends whole (`whole` is at most 3). */
const SLICE = 3;
/** Rows a page adds (first page, and each "Load more"). */
export const ANSWERS_PAGE = 24;
/** The Answers view's reads stay under this share of a minute's read allowance. */
export const ANSWERS_READ_SHARE = 0.5;

export interface AnswersProblem {
  /** `page`: a list read was refused (more may be missing); `card`: one card's whole form. */
  what: 'page' | 'card';
  id?: string;
  code: string;
  message: string;
}

/** What a view of answers needs; the editor sees only this. */
export interface AnswersView {
  /** Rows read so far that pass the search, newest first. */
  visible(): readonly AnswerRow[];
  /** Every row read so far, newest first. */
  all(): readonly AnswerRow[];
  get(id: string): AnswerRow | undefined;
  /** True once the first page was asked for. */
  started(): boolean;
  loading(): boolean;
  /** The service has more done cards than read so far. */
  hasMore(): boolean;
  /** Reads the first page again (the view opened, Refresh). */
  loadFirst(): Promise<void>;
  /** The next page (the "Load more" row). */
  loadMore(): Promise<void>;
  getSearch(): AnswerSearch;
  setSearch(s: AnswerSearch): void;
  /** What the service refused in the last reads (told in the view, never a silent gap). */
  problems(): readonly AnswersProblem[];
  /** Rows changed: `ids` when only those (live updates), undefined for everything. */
  changed: Event<{ ids?: readonly string[] }>;
}

export interface AnswersModelOptions {
  api: ApiClient;
  /** The card model: a card answered or closed while the view is open refreshes its row. */
  cards: Pick<CardEvents, 'changed' | 'removed' | 'added'>;
  /** Waits until an Answers read fits the budget; `background`: a live refresh nobody asked for. */
  beforeRead(o: { background: boolean; signal?: AbortSignal }): Promise<void>;
  logger: Logger;
  pageSize?: number;
}

const LIVE_STATUSES = new Set(['answered', 'done', 'snoozed', 'delegated']);

export class AnswersModel implements AnswersView {
  private rows = new Map<string, AnswerRow>();
  private sorted: AnswerRow[] | undefined;
  /** The done list's continuation: undefined before the first read, null at its end. */
  private next: string | null | undefined;
  private isStarted = false;
  private inFlight: Promise<void> | undefined;
  private search: AnswerSearch = {};
  private refused: AnswersProblem[] = [];
  private abort = new AbortController();
  private generation = 0;
  private readonly changedE = new Emitter<{ ids?: readonly string[] }>();
  readonly changed = this.changedE.event;
  private readonly subs: { dispose(): void }[] = [];

  constructor(private readonly o: AnswersModelOptions) {
    // Live: a card answered, handed over, put off or closed while the view has read its rows.
    this.subs.push(
      // A card the model lists (a full read) is not news: a row only when it came whole, never a read.
      o.cards.added((card) => this.onCard(card, false)),
      o.cards.changed(({ card }) => this.onCard(card, true)),
      // A card that closes leaves the card model (Done is read only when asked): read it here.
      o.cards.removed(({ id, previous }) => {
        if (this.isStarted && (this.rows.has(id) || previous.status === 'answered' || previous.turn === 'agent')) void this.refreshOne(id);
      }),
    );
  }

  visible(): readonly AnswerRow[] {
    const all = this.all();
    return isSearchEmpty(this.search) ? all : all.filter((r) => rowMatches(r, this.search));
  }

  all(): readonly AnswerRow[] {
    this.sorted ??= [...this.rows.values()].sort(newestFirst);
    return this.sorted;
  }

  get(id: string): AnswerRow | undefined { return this.rows.get(id); }
  started(): boolean { return this.isStarted; }
  loading(): boolean { return this.inFlight !== undefined; }
  hasMore(): boolean { return this.next !== null; }
  problems(): readonly AnswersProblem[] { return this.refused; }
  getSearch(): AnswerSearch { return this.search; }

  setSearch(s: AnswerSearch): void {
    this.search = s;
    this.changedE.fire({});
  }

  async loadFirst(): Promise<void> {
    // A new first read: what an older one brings is dropped.
    this.abort.abort();
    this.abort = new AbortController();
    const generation = ++this.generation;
    this.isStarted = true;
    this.next = undefined;
    this.refused = [];
    this.rows.clear();
    this.sorted = undefined;
    this.changedE.fire({});
    this.inFlight = undefined;
    await this.page(generation);
  }

  async loadMore(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.next === null) return;
    // A refused page is asked again from where it stopped; its problem goes once it answers.
    this.refused = this.refused.filter((p) => p.what !== 'page');
    await this.page(this.generation);
  }

  private page(generation: number): Promise<void> {
    const run = this.readPage(generation).finally(() => {
      if (this.inFlight === run) this.inFlight = undefined;
      if (generation === this.generation) this.changedE.fire({});
    });
    this.inFlight = run;
    this.changedE.fire({}); // "loading" shows
    return run;
  }

  private async readPage(generation: number): Promise<void> {
    const signal = this.abort.signal;
    const want = this.o.pageSize ?? ANSWERS_PAGE;
    let got = 0;
    while (got < want && this.next !== null) {
      let list: { cards: CardListEntry[]; next?: string | null };
      try {
        await this.o.beforeRead({ background: false, signal });
        list = await this.o.api.listCards({ status: 'done', limit: SLICE, whole: SLICE, ...(this.next ? { after: this.next } : {}) }, { signal, byPerson: true });
      } catch (e) {
        if (e instanceof AbortedError || generation !== this.generation) return;
        this.refused.push({ what: 'page', code: codeOf(e), message: messageOf(e) });
        this.o.logger.warn('answers: a page of done cards was refused', { error: messageOf(e) });
        return;
      }
      if (generation !== this.generation) return;
      for (const entry of list.cards) {
        const card = isLight(entry) ? await this.readWhole(entry, { background: false, signal }) : entry;
        if (generation !== this.generation) return;
        this.put(card);
        got++;
      }
      this.next = list.next ?? null;
    }
  }

  /** The whole card (its history) by id; on refusal the light row stays and the problem is kept. */
  private async readWhole(entry: CardListEntry, o: { background: boolean; signal?: AbortSignal }): Promise<CardListEntry> {
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
    this.sorted = undefined;
  }

  /** A card the card model holds changed: its row, from the whole card when the model has it. */
  private onCard(card: CardListEntry, mayRead: boolean): void {
    if (!this.isStarted || !(LIVE_STATUSES.has(card.status) || this.rows.has(card.id))) return;
    if (!isLight(card) && (card as Card).history) {
      // A card a press just built has no step for the press yet (the read after it brings one):
      // no row that tells nothing decided.
      if (rowOf(card).outcome === 'asked' && !this.rows.has(card.id)) return;
      this.put(card);
      this.changedE.fire({ ids: [card.id] });
    } else if (mayRead) void this.refreshOne(card.id);
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
    this.generation++;
    this.isStarted = false;
    this.next = undefined;
    this.rows.clear();
    this.sorted = undefined;
    this.refused = [];
    this.inFlight = undefined;
    this.changedE.fire({});
  }

  dispose(): void {
    this.abort.abort();
    for (const s of this.subs.splice(0)) s.dispose();
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
