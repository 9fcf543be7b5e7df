// Injected faults (POST /_sandbox/faults): the next `times` requests matching a path prefix and a
// method fail as told: a status with a problem body (before any work), a slow answer, a dropped
// connection (after the work is done, so a retry with the same Idempotency-Key replays it), or an
// answer without the fields the RFCs make optional (`omit`: the lean service a client must accept).
import type { FastifyRequest } from 'fastify';
import type { ProblemCode } from '../api/schemas';
import { PROBLEM_CODES } from '../api/constants';
import { PROBLEM_STATUS } from './problems';
import { isObject } from './validate';

export interface Fault {
  id: number;
  path?: string;
  method?: string;
  status?: number;
  code?: ProblemCode;
  retryAfter?: number;
  delayMs?: number;
  drop?: boolean;
  /** Optional fields left out of a successful OAuth answer (OMITTABLE says which, where). */
  omit?: string[];
  times: number;
}

/**
 * The fields an OAuth answer may lack, by route: RFC 8628 section 3.2 (device answer) and RFC 6749
 * section 5.1 (token answer). Only these: a fault never makes an answer the RFCs call broken.
 */
export const OMITTABLE: Readonly<Record<string, readonly string[]>> = {
  '/oauth/device': ['interval', 'verification_uri_complete'],
  '/oauth/token': ['expires_in'],
};
const OMITTABLE_FIELDS = [...new Set(Object.values(OMITTABLE).flat())];

/** A 2xx JSON answer of an OAuth route without the optional fields `omit` names; else unchanged. */
export function omitted(path: string, status: number, payload: unknown, omit: readonly string[] | undefined): unknown {
  const fields = OMITTABLE[path]?.filter((f) => omit?.includes(f));
  if (!fields?.length || status < 200 || status >= 300 || typeof payload !== 'string') return payload;
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return payload;
  }
  if (!isObject(body)) return payload;
  for (const f of fields) delete body[f];
  return JSON.stringify(body);
}

/** Faults apply to the service's own addresses, never to the control surface. */
export const FAULTABLE = ['/v1', '/oauth', '/in/'];

export class Faults {
  private list: Fault[] = [];
  private nextId = 1;
  private held = 0;

  /** Responses held back by a delayMs fault right now (their work done, their finish not yet). */
  get holding(): number {
    return this.held;
  }

  /** The early ends of the responses held now (`release`). */
  private readonly releases = new Set<() => void>();

  /** Holds a response `ms` before its finish runs, counted in `holding` until the finish is done. */
  async hold(ms: number, finish: () => void): Promise<void> {
    this.held++;
    let release: (() => void) | undefined;
    try {
      await new Promise<void>((r) => {
        const timer = setTimeout(r, ms);
        release = () => { clearTimeout(timer); r(); };
        this.releases.add(release);
      });
      finish();
    } finally {
      if (release) this.releases.delete(release);
      this.held--;
    }
  }

  /**
   * Lets every held response finish now (POST /_sandbox/faults/release): a test holds one as long
   * as it needs (a long delayMs) and ends the hold when its check is done, not after a guessed time.
   */
  release(): number {
    const now = [...this.releases];
    this.releases.clear();
    for (const r of now) r();
    return now.length;
  }

  reset(): void {
    this.list = [];
  }

  all(): Fault[] {
    return this.list.map((f) => ({ ...f }));
  }

  /** Validates and adds a fault; returns an error text on bad input. */
  add(body: unknown): Fault | string {
    if (!isObject(body)) return 'body must be a JSON object';
    const f: Fault = { id: this.nextId++, times: 1 };
    if (body.times !== undefined) {
      if (!Number.isInteger(body.times) || (body.times as number) < 1) return 'times must be a positive integer';
      f.times = body.times as number;
    }
    if (body.path !== undefined) {
      if (typeof body.path !== 'string' || !body.path.startsWith('/')) return 'path must be a path prefix starting with /';
      f.path = body.path;
    }
    if (body.method !== undefined) {
      if (typeof body.method !== 'string') return 'method must be a string';
      f.method = body.method.toUpperCase();
    }
    if (body.status !== undefined) {
      if (!Number.isInteger(body.status) || (body.status as number) < 400 || (body.status as number) > 599) return 'status must be 400 to 599';
      f.status = body.status as number;
    }
    if (body.code !== undefined) {
      if (!PROBLEM_CODES.includes(body.code as ProblemCode)) return 'code must be a problem code';
      f.code = body.code as ProblemCode;
    }
    if (body.retryAfter !== undefined) {
      if (!Number.isInteger(body.retryAfter) || (body.retryAfter as number) < 0) return 'retryAfter must be whole seconds';
      f.retryAfter = body.retryAfter as number;
    }
    if (body.delayMs !== undefined) {
      if (!Number.isInteger(body.delayMs) || (body.delayMs as number) < 0 || (body.delayMs as number) > 120_000) return 'delayMs must be 0 to 120000';
      f.delayMs = body.delayMs as number;
    }
    if (body.drop !== undefined) {
      if (typeof body.drop !== 'boolean') return 'drop must be a boolean';
      f.drop = body.drop;
    }
    if (body.omit !== undefined) {
      const o = body.omit;
      if (!Array.isArray(o) || o.length === 0 || !o.every((x) => typeof x === 'string' && OMITTABLE_FIELDS.includes(x))) {
        return `omit must list fields of ${OMITTABLE_FIELDS.join(', ')}`;
      }
      f.omit = [...new Set(o as string[])];
    }
    if (f.status === undefined && f.delayMs === undefined && !f.drop && !f.omit) return 'give status, delayMs, drop or omit';
    this.list.push(f);
    return f;
  }

  /** The fault this request meets, counted down; undefined when none. */
  take(req: FastifyRequest): Fault | undefined {
    const path = req.url.split('?')[0] ?? req.url;
    if (!FAULTABLE.some((p) => path.startsWith(p))) return undefined;
    const i = this.list.findIndex((f) => (f.path === undefined || path.startsWith(f.path)) && (f.method === undefined || f.method === req.method));
    if (i === -1) return undefined;
    const f = this.list[i]!;
    f.times -= 1;
    if (f.times <= 0) this.list.splice(i, 1);
    return f;
  }
}

/** The problem code that stands for an injected status. */
export function codeForStatus(status: number, code?: ProblemCode): ProblemCode {
  if (code) return code;
  const match = (Object.entries(PROBLEM_STATUS) as [ProblemCode, number][]).filter(([, s]) => s === status);
  const preferred: Partial<Record<number, ProblemCode>> = { 400: 'invalid', 403: 'forbidden', 409: 'conflict', 429: 'rate_limited', 500: 'server_error', 503: 'unavailable' };
  return preferred[status] ?? match[0]?.[0] ?? (status >= 500 ? 'server_error' : 'invalid');
}
