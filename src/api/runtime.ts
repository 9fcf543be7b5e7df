// Time, timers and logging are injected everywhere below the editor so tests can run on a
// manual clock and so no secret can slip into a log by accident.

/** Milliseconds since the epoch. The sandbox's manual clock in tests, Date.now in the editor. */
export interface Clock {
  now(): number;
}

export interface TimerHandle { cancel(): void }

export interface Timers {
  /** Runs `fn` once after `ms` on the injected clock. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
}

export const systemClock: Clock = { now: () => Date.now() };

export const systemTimers: Timers = {
  setTimeout(fn, ms) {
    const h = setTimeout(fn, ms);
    return { cancel: () => clearTimeout(h) };
  },
};

/**
 * The only logger the client core writes to. It receives a message and plain, non-secret
 * facts; callers never pass tokens, keys, codes or proofs (see `redact` as a second guard).
 */
export interface Logger {
  info(message: string, facts?: Record<string, unknown>): void;
  warn(message: string, facts?: Record<string, unknown>): void;
  error(message: string, facts?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

const SECRET_KEY = /token|secret|authorization|dpop|proof|code|jwk|assertion|attestation|password|key|^d$/i;
/** JWTs, and Authorization-style values in any case ("DPoP x", "bearer x", "dpop: x"). */
const SECRET_VALUE = /\b(ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*|(dpop|bearer)(\s+|\s*[:=]\s*)[^\s,;&"'\\]+)/gi;
/** A secret-named field inside JSON text, escaped or not: the name stays, the value goes. */
const SECRET_JSON_FIELD = /(\\*"[A-Za-z_]*(?:token|secret|code|jwk|assertion|attestation|password|authorization)[A-Za-z_]*\\*"\s*:\s*\\*")[^"\\]*/gi;
/** A secret field of a form body or query string (`refresh_token=...`). */
const SECRET_FORM_FIELD = /\b((?:access_token|refresh_token|id_token|device_code|code|client_secret|assertion|machine_attestation)=)[^&\s"']+/gi;
/** Deeper than this, an object is not looked into: it is masked whole. */
const MAX_REDACT_DEPTH = 8;

/** Masks anything that looks like a secret, by field name or by shape (JWTs, auth headers, JSON and form fields). */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return value
      .replace(SECRET_JSON_FIELD, '$1[redacted]')
      .replace(SECRET_FORM_FIELD, '$1[redacted]')
      .replace(SECRET_VALUE, '[redacted]');
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_REDACT_DEPTH) return '[redacted: nested too deep]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = SECRET_KEY.test(k) && k !== 'userCode' ? '[redacted]' : redact(v, depth + 1);
  }
  return out;
}

/** Wraps a logger so every message and fact passes `redact` first. */
export function redactingLogger(inner: Logger): Logger {
  const wrap = (fn: Logger['info']) => (message: string, facts?: Record<string, unknown>) =>
    fn(redact(message) as string, facts ? (redact(facts) as Record<string, unknown>) : undefined);
  return { info: wrap(inner.info.bind(inner)), warn: wrap(inner.warn.bind(inner)), error: wrap(inner.error.bind(inner)) };
}

export class AbortedError extends Error {
  constructor(message = 'Cancelled') {
    super(message);
    this.name = 'AbortedError';
  }
}

/** Waits `ms` on the injected timers; rejects with AbortedError when `signal` aborts. */
export function sleep(timers: Timers, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const onAbort = () => {
      handle.cancel();
      reject(new AbortedError());
    };
    const handle = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Exponential backoff with full jitter: attempt 0 -> up to base, doubling to `max`. */
export function backoffDelay(attempt: number, opts: { baseMs?: number; maxMs?: number; random?: () => number } = {}): number {
  const base = opts.baseMs ?? 500;
  const max = opts.maxMs ?? 60_000;
  const cap = Math.min(max, base * 2 ** Math.max(0, attempt));
  const r = (opts.random ?? Math.random)();
  // Half fixed, half jitter: never zero (no hot loop), never above the cap.
  return Math.round(cap / 2 + (cap / 2) * r);
}

export interface Disposable { dispose(): void }
export type Listener<T> = (e: T) => void;
/** Same shape as contract.ts's Event, so the editor can subscribe the same way. */
export interface Event<T> { (listener: Listener<T>): Disposable }

/** A tiny event emitter; a throwing listener never breaks the others. */
export class Emitter<T> {
  private readonly listeners = new Set<Listener<T>>();
  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        // A view's bug must not stop the model.
      }
    }
  }
  clear(): void {
    this.listeners.clear();
  }
}
