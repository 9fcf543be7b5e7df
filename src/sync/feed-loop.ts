// The change-feed loop. The feed owner (one window per computer) long-polls with wait=25 and the
// cursor kept; other windows read the feed without waiting, slowly, with their own cursor, so a
// hand-over of ownership loses no change. Failures back off and report "offline"; the next
// success clears it.
import type { ApiClient } from '../api/client';
import { ApiProblemError } from '../api/errors';
import { AbortedError, backoffDelay, sleep } from '../api/runtime';
import type { Logger, Timers } from '../api/runtime';
import type { ChangeList } from '../api/schemas';
import type { CardModel } from './card-model';

export const LONG_POLL_WAIT_SECONDS = 25;
/** How often a window that does not own the feed reads it (without waiting). */
export const NON_OWNER_POLL_MS = 30_000;
/** Pace of the owner's non-waiting reads while the waits budget is used up. */
export const BUSY_POLL_MS = 2_000;
/** The same while the person is pressing here: their presses used the waits, the feed reads for them. */
export const PERSON_BUSY_POLL_MS = 750;
/**
 * The same while changes keep coming (a burst of cards: each ended a held wait, so the waits
 * share is used up): the next card shows within a quarter second, not two. A burst is short, so
 * these reads stay far inside the reads class (the budget still gates them).
 */
export const BURST_POLL_MS = 250;
/** Quick reads in a row that find nothing end the burst: back to the 2 s pace. */
export const BURST_QUIET_POLLS = 3;
/** Background reads kept free in a burst's minute (card reads, a full read): quick reads stop short of them. */
export const BURST_READS_KEPT = 40;

export interface FeedLoopOptions {
  api: ApiClient;
  model: CardModel;
  timers: Timers;
  logger: Logger;
  isOwner: () => boolean;
  /** Waits until background reads fit the budget (aborted by `signal`). */
  beforeRead: (waits: boolean, signal?: AbortSignal) => Promise<void>;
  /** False when the waits class is used up for now: then read without waiting, slowly. */
  canWait: () => boolean;
  /** Room for the quick reads of a burst (they must not use the reads share up). */
  canPollQuickly?: () => boolean;
  /** The person pressed something a moment ago: non-waiting reads are theirs, and quicker. */
  personActive?: () => boolean;
  onSuccess: () => void;
  onFailure: (e: unknown) => void;
  /** The service refused the cursor (too old, or the service was reset): read everything again. */
  onCursorLost?: () => void;
  random?: () => number;
  nonOwnerPollMs?: number;
  /**
   * The person pressed here and that hold's end has not come through: a window that does not own
   * the feed reads it as the owner does (waiting) until it has, not at its slow pace.
   */
  awaitingHoldEnd?: () => boolean;
}

export class FeedLoop {
  private cursor: string | undefined;
  private running = false;
  private wake = new AbortController();
  private loopDone: Promise<void> | undefined;
  private failures = 0;
  private readAllAfterBegin = false;
  /** Quick reads left before the owner polls at the 2 s pace again (refilled by every change seen). */
  private burstPolls = 0;
  private waitHeld = false;
  /** Number of change lists applied (tests and the bench observe progress through it). */
  applied = 0;

  constructor(private readonly o: FeedLoopOptions) {}

  get currentCursor(): string | undefined {
    return this.cursor;
  }

  /** A wait is held on the service now: a change made here (a press) comes back on it at once. */
  get waiting(): boolean {
    return this.waitHeld;
  }

  /** The cursor to start from: taken BEFORE the first full read so nothing between is lost. */
  async begin(): Promise<void> {
    if (this.cursor !== undefined) return;
    await this.o.beforeRead(false, this.wake.signal);
    const res = await this.o.api.changes({}, { attempts: 1 });
    this.cursor = res.cursor;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake.abort();
    await this.loopDone;
  }

  /** After a sign-out (the loop stopped): the next sign-in starts a feed of its own. */
  forget(): void {
    this.cursor = undefined;
    this.failures = 0;
    this.readAllAfterBegin = false;
    this.burstPolls = 0;
  }

  /** Ownership changed (or anything else worth a fresh look): end the current wait at once. */
  poke(): void {
    this.wake.abort();
  }

  /** Reads the feed at once (a press here: its change, then its hold's end); false when the loop is not running. */
  readNow(): boolean {
    if (!this.running) return false;
    this.poke();
    return true;
  }

  private async loop(): Promise<void> {
    let immediate = true; // first round and after `more`: read at once
    while (this.running) {
      if (this.wake.signal.aborted) {
        this.wake = new AbortController();
        immediate = true;
      }
      const signal = this.wake.signal;
      const owner = this.o.isOwner();
      // A hold pressed here ends on the feed (#53): until that change is in, read like the owner.
      const holdHere = this.o.awaitingHoldEnd?.() ?? false;
      const watching = owner || holdHere;
      try {
        if (!immediate && !watching) await sleep(this.o.timers, this.o.nonOwnerPollMs ?? NON_OWNER_POLL_MS, signal);
        if (this.cursor === undefined) {
          await this.begin();
          // The new cursor first, then the full read: a change between the two is not lost.
          if (this.readAllAfterBegin) {
            this.readAllAfterBegin = false;
            this.o.onCursorLost?.();
          }
        }
        const wantWait = watching && !immediate;
        // Changes come in runs (a card, the person's press on it, its hold's end): after one, the
        // owner reads quickly for a moment before it holds a wait again, and while a hold pressed
        // here runs it reads at the person's pace, so the waits share (3 a minute) is kept for
        // the quiet time before the next card, which a held wait then shows at once
        // (decisions.md "#53/#54: the card's way to the tree").
        const quick = this.burstPolls > 0 && (this.o.canPollQuickly?.() ?? true);
        const wait = wantWait && !quick && !holdHere && this.o.canWait() ? LONG_POLL_WAIT_SECONDS : 0;
        // Changes still coming: read again shortly (BURST_POLL_MS).
        const burst = wantWait && wait === 0 && quick;
        // Many changes in a minute used the waits budget: poll without waiting for a while. While
        // the person presses, their presses caused those changes: the reads are theirs (no budget
        // wait) and come quicker, so a new card still shows within a second.
        // A read at once while the person presses (a press in a window that does not own the feed) is theirs too.
        const forPerson = (immediate || (wantWait && wait === 0)) && (this.o.personActive?.() ?? false);
        if (wantWait && wait === 0) await sleep(this.o.timers, burst ? BURST_POLL_MS : forPerson ? PERSON_BUSY_POLL_MS : BUSY_POLL_MS, signal);
        if (!forPerson) await this.o.beforeRead(wait > 0, signal);
        if (signal.aborted && this.running) continue;
        let res: ChangeList;
        this.waitHeld = wait > 0;
        try {
          res = await this.o.api.changes(
            { after: this.cursor, wait: wait || undefined, limit: 100 },
            { attempts: 1, signal, byPerson: forPerson },
          );
        } finally {
          this.waitHeld = false;
        }
        if (res.changes.length) await this.o.model.applyChanges(res.changes);
        this.cursor = res.cursor; // moved only once the changes are applied
        this.applied++;
        if (owner) this.burstPolls = res.changes.length ? BURST_QUIET_POLLS : Math.max(0, this.burstPolls - 1);
        this.failures = 0;
        this.o.onSuccess();
        immediate = res.more;
      } catch (e) {
        if (e instanceof AbortedError || !this.running) continue;
        if (e instanceof ApiProblemError && e.code === 'invalid' && this.cursor !== undefined) {
          // Start the feed from now and read everything once, so nothing between is missed.
          this.o.logger.warn('change feed cursor refused; starting again from a full read');
          this.cursor = undefined;
          this.readAllAfterBegin = true;
          immediate = true;
          continue;
        }
        this.o.onFailure(e);
        // A 429's Retry-After is a floor: asking sooner would only be refused again.
        const asked = e instanceof ApiProblemError ? Math.min(e.retryAfterSeconds ?? 0, 300) * 1000 : 0;
        const delay = Math.max(asked, backoffDelay(this.failures++, { baseMs: 1_000, maxMs: 60_000, random: this.o.random }));
        this.o.logger.warn('change feed failed; retrying', { delayMs: delay, error: String((e as Error).message ?? e) });
        try {
          await sleep(this.o.timers, delay, this.wake.signal);
        } catch {
          // woken early (ownership change, stop, back online)
        }
        immediate = true;
      }
    }
  }
}
