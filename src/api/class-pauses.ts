// After a 429 the service's Retry-After holds for the limit class, not only for the refused
// request: every request of that class waits it out. The per-person class is never paused from
// one refusal (it would stop every request), since the refusal does not say which limit it was.
import type { Clock } from './runtime';
import type { LimitClass } from './limit-classes';

/** A hostile Retry-After cannot pause a class for longer than this. */
export const MAX_CLASS_PAUSE_MS = 5 * 60_000;

export class ClassPauses {
  private readonly until = new Map<LimitClass, number>();
  constructor(private readonly clock: Clock) {}

  /** Pauses the request's classes (all but `person`) for `ms` from now; a longer pause already set stays. */
  pause(classes: readonly LimitClass[], ms: number): void {
    const end = this.clock.now() + Math.min(Math.max(0, ms), MAX_CLASS_PAUSE_MS);
    for (const c of classes) {
      if (c === 'person') continue;
      if ((this.until.get(c) ?? 0) < end) this.until.set(c, end);
    }
  }

  /** How long a request of these classes must still wait (0 = send now). */
  remaining(classes: readonly LimitClass[]): number {
    const now = this.clock.now();
    let wait = 0;
    for (const c of classes) wait = Math.max(wait, (this.until.get(c) ?? 0) - now);
    return wait;
  }

  /** Sign-out: the next sign-in has limits of its own. */
  clear(): void {
    this.until.clear();
  }
}
