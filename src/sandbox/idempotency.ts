// Idempotency-Key on /v1 writes: required on answer, honoured on the others. The first answer is
// kept 24 h per sign-in and key and replayed with `Idempotent-Replayed: true`; a twin arriving
// while the first is in progress gets 409 idempotency_in_progress; the same key with another
// request gets 422 idempotency_mismatch.
import { createHash } from 'node:crypto';
import { ProblemError } from './problems';
import { MemoryTable, type Table } from './store/table';

export const REPLAY_MS = 24 * 3_600_000;
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export interface StoredAnswer {
  status: number;
  body: unknown;
  contentType: string;
}

export interface IdempotencyEntry {
  fingerprint: string;
  at: number;
  answer?: StoredAnswer;
}

export class IdempotencyStore {
  /**
   * Kept in the sandbox's store, so a press retried after a restart still replays. A reservation
   * whose request never answered (the process ended under it) is forgotten at start.
   */
  constructor(
    private readonly now: () => number,
    private readonly entries: Table<IdempotencyEntry> = new MemoryTable(),
  ) {
    for (const [id, e] of [...entries.entries()]) if (!e.answer) entries.delete(id);
  }

  reset(): void {
    this.entries.clear();
  }

  /** Validates the header value; undefined when absent. */
  static key(raw: string | string[] | undefined, required: boolean): string | undefined {
    if (Array.isArray(raw)) {
      throw new ProblemError('invalid', 'Send one Idempotency-Key.', { errors: [{ field: 'Idempotency-Key', reason: 'give it once' }] });
    }
    if (raw === undefined) {
      if (required) {
        throw new ProblemError('invalid', 'An answer needs an Idempotency-Key header (one key per press).', {
          errors: [{ field: 'Idempotency-Key', reason: 'required on answer' }],
        });
      }
      return undefined;
    }
    if (!KEY_PATTERN.test(raw)) {
      throw new ProblemError('invalid', 'Idempotency-Key must be 1 to 255 printable ASCII characters.', {
        errors: [{ field: 'Idempotency-Key', reason: '1 to 255 printable ASCII characters' }],
      });
    }
    return raw;
  }

  static fingerprint(method: string, path: string, body: unknown): string {
    return createHash('sha256').update(`${method} ${path}\n${canonical(body)}`).digest('base64url');
  }

  /**
   * Reserves the key for this request. Returns the stored answer to replay, or null when the
   * request should run (then call `finish` or `release`).
   */
  begin(scope: string, key: string, fingerprint: string): StoredAnswer | null {
    const now = this.now();
    this.sweep(now);
    const id = `${scope}\n${key}`;
    const e = this.entries.get(id);
    if (e) {
      if (e.fingerprint !== fingerprint) {
        throw new ProblemError('idempotency_mismatch', 'This Idempotency-Key was used for another request; use a new key for a new press.');
      }
      if (!e.answer) throw new ProblemError('idempotency_in_progress', 'The first request with this key is still in progress; retry shortly.');
      return e.answer;
    }
    this.entries.set(id, { fingerprint, at: now });
    return null;
  }

  finish(scope: string, key: string, answer: StoredAnswer): void {
    const e = this.entries.get(`${scope}\n${key}`);
    if (e) this.entries.set(`${scope}\n${key}`, { ...e, answer });
  }

  /** Forgets a reservation whose request did not reach a final answer (5xx, limits). */
  release(scope: string, key: string): void {
    const id = `${scope}\n${key}`;
    const e = this.entries.get(id);
    if (e && !e.answer) this.entries.delete(id);
  }

  private sweep(now: number): void {
    for (const [id, e] of this.entries) if (now - e.at >= REPLAY_MS) this.entries.delete(id);
  }
}

/** JSON with sorted keys, so `{a,b}` and `{b,a}` are the same request. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}
