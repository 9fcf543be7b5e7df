// DPoP nonces (RFC 9449 section 8). One current nonce, replaced every ROTATE_MS on the sandbox
// clock; a replaced nonce stays good for GRACE_MS after its successor was issued (DESIGN).
import { newSecret } from './ids';

export const NONCE_ROTATE_MS = 5 * 60_000;
export const NONCE_GRACE_MS = 5 * 60_000;

export class NonceBook {
  private current = '';
  private issuedAt = 0;
  /** Replaced nonces -> when they stop being accepted. */
  private readonly previous = new Map<string, number>();

  constructor(private readonly now: () => number) {
    this.reset();
  }

  reset(): void {
    this.previous.clear();
    this.current = newSecret(16);
    this.issuedAt = this.now();
  }

  /** The nonce to hand out now (rotating first when its time is up). */
  latest(): string {
    const now = this.now();
    if (now - this.issuedAt >= NONCE_ROTATE_MS) {
      // The old one was due to be replaced at issuedAt + ROTATE; its grace counts from then, so a
      // jump of the manual clock does not keep a long-stale nonce alive.
      this.previous.set(this.current, this.issuedAt + NONCE_ROTATE_MS + NONCE_GRACE_MS);
      this.current = newSecret(16);
      this.issuedAt = now;
      for (const [nonce, until] of this.previous) if (until <= now) this.previous.delete(nonce);
    }
    return this.current;
  }

  isGood(nonce: string): boolean {
    if (nonce === this.latest()) return true;
    const until = this.previous.get(nonce);
    return until !== undefined && until > this.now();
  }
}
