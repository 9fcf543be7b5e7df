// The service's time, as far as DPoP and the attestation need it. A computer whose clock is off
// by more than the service's 60 s window would have every proof refused; when the service refuses
// a proof, its `Date` header says what time it is there, and the proof is made again with that.
import type { Clock } from './runtime';

/** Below this the correction is noise (Date has whole seconds, the window is 60 s). */
const MIN_SKEW_MS = 5_000;

export class ServerTime implements Clock {
  private skew = 0;
  constructor(private readonly local: Clock) {}

  now(): number {
    return this.local.now() + this.skew;
  }

  get skewMs(): number {
    return this.skew;
  }

  /**
   * After a refusal for time: take the service's `Date` as the truth. Returns an undo function
   * when the correction changed anything (the caller undoes it if the repeat is refused too),
   * or undefined when there is nothing to correct.
   */
  correctFrom(dateHeader: string | undefined): (() => void) | undefined {
    const server = dateHeader ? Date.parse(dateHeader) : NaN;
    if (!Number.isFinite(server)) return undefined;
    const skew = server + 500 - this.local.now(); // Date truncates to the second: aim mid-second
    if (Math.abs(skew - this.skew) < MIN_SKEW_MS) return undefined;
    const before = this.skew;
    this.skew = skew;
    return () => {
      this.skew = before;
    };
  }
}
