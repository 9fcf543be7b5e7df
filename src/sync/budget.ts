// Limit classes of the spec (per minute) and a sliding-window budget that keeps background work
// far below each ceiling. The person's own requests (presses, and the reads that follow them or
// that they asked for) are counted but never delayed, and do not use up the background share:
// the person is waiting on them.
import type { Clock } from '../api/runtime';
import { classesOf } from '../api/limit-classes';
import type { LimitClass } from '../api/limit-classes';

export { classesOf };
export type { LimitClass };

/** Per minute, spec "Limits" (DESIGN: assistants and non-waiting changes are reads, presence a write). */
export const LIMITS_PER_MINUTE: Record<LimitClass, number> = { read: 300, write: 60, answer: 30, wait: 6, person: 1200 };

/**
 * Background work may use at most this share of a class per minute (other windows and apps share
 * it). Reads: 40 % (120 a minute), so a burst of cards (a feed read and a card read each) still
 * shows quickly, and the person's own reads keep the larger part of the class.
 */
export const BACKGROUND_SHARE: Record<LimitClass, number> = { read: 0.4, write: 0.1, answer: 0, wait: 0.5, person: 0.1 };

export class RequestBudget {
  private readonly log: { at: number; classes: LimitClass[]; byPerson: boolean }[] = [];
  readonly totals: Record<LimitClass, number> = { read: 0, write: 0, answer: 0, wait: 0, person: 0 };
  constructor(private readonly clock: Clock) {}

  record(method: string, path: string, waits: boolean, byPerson = false): void {
    const classes = classesOf(method, path, waits);
    this.log.push({ at: this.clock.now(), classes, byPerson });
    for (const c of classes) this.totals[c]++;
    this.trim();
  }

  /** Requests of a class in the last minute. */
  lastMinute(c: LimitClass): number {
    this.trim();
    return this.log.filter((e) => e.classes.includes(c)).length;
  }

  /** Background requests of a class that still fit its share this minute. */
  backgroundLeft(c: LimitClass): number {
    this.trim();
    return allowedOf(c) - this.log.filter((e) => !e.byPerson && e.classes.includes(c)).length;
  }

  /** How long background work of these classes should wait to keep its own requests inside its share (0 = go). */
  delayFor(classes: LimitClass[]): number {
    return Math.max(0, ...classes.map((c) => this.delayToFit(c, allowedOf(c), true)));
  }

  /**
   * How long background work of a class should wait so that `keep` of its share stay free for
   * other background work this minute (0 = go).
   */
  delayKeeping(c: LimitClass, keep: number): number {
    return this.delayToFit(c, Math.max(1, allowedOf(c) - keep), true);
  }

  /**
   * How long until every request of a class in the last minute (the person's and background
   * ones) is under `share` of its allowance (0 = go). The Answers view reads under half of it, so
   * paging through history never crowds out the cards themselves.
   */
  delayUnder(c: LimitClass, share: number): number {
    return this.delayToFit(c, Math.max(1, Math.floor(LIMITS_PER_MINUTE[c] * share)), false);
  }

  /**
   * How long until fewer than `allowed` requests of a class (background ones only, or every one)
   * fall in the last minute: when the one `allowed` back from the newest leaves the window (0 = go).
   */
  private delayToFit(c: LimitClass, allowed: number, backgroundOnly: boolean): number {
    this.trim();
    const inClass = this.log.filter((e) => (!backgroundOnly || !e.byPerson) && e.classes.includes(c));
    const oldest = inClass[inClass.length - allowed];
    return inClass.length < allowed || !oldest ? 0 : Math.max(0, oldest.at + 60_000 - this.clock.now());
  }

  private trim(): void {
    const cutoff = this.clock.now() - 60_000;
    while (this.log.length && this.log[0]!.at <= cutoff) this.log.shift();
  }
}

function allowedOf(c: LimitClass): number {
  return Math.max(1, Math.floor(LIMITS_PER_MINUTE[c] * BACKGROUND_SHARE[c]));
}
