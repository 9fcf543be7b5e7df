// Rate limits (spec "Limits" + DESIGN): per sign-in per class, and per person across every app.
// A sliding window of one minute on the sandbox clock; a refused call is not counted.
import type { LimitClass } from '../api/constants';
import { ProblemError } from './problems';
import type { RouteClass } from './v1-route-table';

export const PER_MINUTE: Record<LimitClass, number> = {
  read: 300,
  write: 60,
  answer: 30,
  wait: 6,
  person: 1200,
};

const WINDOW_MS = 60_000;

export class RateLimits {
  /** `${grantId}:${class}` or `person:${userId}` -> times of counted calls, oldest first. */
  private readonly windows = new Map<string, number[]>();

  constructor(private readonly now: () => number) {}

  reset(): void {
    this.windows.clear();
  }

  /** Counts one call in every class it belongs to, or throws rate_limited counting nothing. */
  take(grantId: string, userId: string, classes: readonly RouteClass[]): void {
    const now = this.now();
    const keys: [string, number][] = classes.map((c) => [`${grantId}:${c}`, PER_MINUTE[c]]);
    keys.push([`person:${userId}`, PER_MINUTE.person]);
    let wait = 0;
    let over: string | undefined;
    for (const [key, max] of keys) {
      const w = this.window(key, now);
      if (w.length >= max) {
        const free = w[w.length - max]! + WINDOW_MS - now;
        if (free > wait) {
          wait = free;
          over = key.startsWith('person:') ? 'the per-person limit (1,200 a minute)' : `the ${key.split(':')[1]} limit (${max} a minute)`;
        }
      }
    }
    if (over !== undefined) {
      throw new ProblemError('rate_limited', `Over ${over}; retry after the time in Retry-After.`, {
        retryAfter: Math.max(1, Math.ceil(wait / 1000)),
      });
    }
    for (const [key] of keys) this.window(key, now).push(now);
  }

  private window(key: string, now: number): number[] {
    let w = this.windows.get(key);
    if (!w) {
      w = [];
      this.windows.set(key, w);
    }
    let drop = 0;
    while (drop < w.length && w[drop]! <= now - WINDOW_MS) drop++;
    if (drop) w.splice(0, drop);
    return w;
  }
}
