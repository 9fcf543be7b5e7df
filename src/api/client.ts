// One function per /v1 route. Every request: a fresh DPoP proof with the latest nonce,
// Service-Version, User-Agent; reads send If-None-Match from the ETag cache; writes carry the
// press's Idempotency-Key. Retries follow these rules (the client core's, person-api.md):
// - 401 use_dpop_nonce: once, at once, with the nonce the refusal carried;
// - 401 invalid_token: once, after the token set renewed the token;
// - 429: after Retry-After (a write only while the person still waits on it), and every other
//   request of the same limit class waits it out too (ClassPauses);
// - 5xx / network: reads with backoff and jitter; writes only with their same key, and only
//   while the person still waits on them.
// Only the service's own challenge (401/403 with a DPoP/Bearer WWW-Authenticate) is a sign-in
// refusal; a gateway's or proxy's answer (any body) is "can't reach the service" (NetworkError).
import type * as z from 'zod/mini';
import { ClassPauses } from './class-pauses';
import { ApiProblemError, MalformedResponseError, NetworkError } from './errors';
import { classesOf } from './limit-classes';
import { isJsonType, NonceStore, readJson, sendDpopBound } from './dpop-exchange';
import type { DpopAnswer } from './dpop-exchange';
import type { HttpResponse, HttpTransport } from './http';
import type { ServerTime } from './server-time';
import { AbortedError, backoffDelay, sleep, silentLogger } from './runtime';
import type { Clock, Logger, Timers } from './runtime';
import {
  AnswerResult, AssistantList, CardEnvelope, CardList, ChangeList, DelegateResult, LaterResult, Me,
  MessageResult, PageLink, Problem, SERVICE_VERSION, StatusResult,
} from './schemas';
import type {
  AnswerBody, Assistant, Card, CardStatus, DelegateBody, LaterBody, MessageBody,
} from './schemas';

/** What the client needs from the sign-in (implemented by src/auth's TokenSet). */
export interface RequestAuth {
  /** The access token to use now; refreshes first when it is about to expire. */
  accessToken(): Promise<string>;
  /** After 401 invalid_token: renew and return a new token, or throw (signed out). */
  renewAfterRejection(rejected: string): Promise<string>;
  /** A fresh DPoP proof for this request. */
  proof(htm: string, url: string, accessToken: string | undefined, nonce: string | undefined): Promise<string>;
}

// Kept here too: the sync layer and tests import them from the client.
export { NonceStore };

export interface ReadOptions {
  signal?: AbortSignal;
  /** Attempts for 5xx / network errors (default 4). The feed loop passes 1 and backs off itself. */
  attempts?: number;
  /** The person asked for (or just pressed on) what this read fetches: not background work. */
  byPerson?: boolean;
}

export interface WriteOptions {
  /** One key per press, reused for every retry of that press. */
  idempotencyKey: string;
  /** False once the person moved on: no retry after that. */
  stillWaiting: () => boolean;
  /** Aborts waits between retries (never the request in flight: its outcome must be learned). */
  signal?: AbortSignal;
}

export interface CardsQuery {
  status?: CardStatus;
  area?: readonly string[];
  assistant?: readonly string[];
  agent?: readonly string[];
  app?: readonly string[];
  machine?: readonly string[];
  threadId?: string;
  limit?: number;
  whole?: number;
  after?: string;
}

export interface ChangesQuery {
  after?: string;
  wait?: number;
  limit?: number;
}

export interface ApiClientOptions {
  baseUrl: string;
  transport: HttpTransport;
  auth: RequestAuth;
  nonces?: NonceStore;
  clock: Clock;
  timers: Timers;
  logger?: Logger;
  userAgent: string;
  random?: () => number;
  /** Corrected from the service's Date when it refuses a proof for its time. */
  serverTime?: ServerTime;
  /** Counts every request sent, by limit class (for budgets and the idle-hour bench). */
  onRequest?: (info: RequestInfo) => void;
  /** Limit classes paused by a 429 (default: one of its own). */
  pauses?: ClassPauses;
}

/** One request sent: its route, whether it long-polls, and whether the person caused it. */
export interface RequestInfo {
  method: string;
  path: string;
  waits: boolean;
  byPerson?: boolean;
}

interface CacheEntry {
  etag: string;
  body: unknown;
}

const MAX_WRITE_ATTEMPTS = 6;
const MAX_CACHE = 500;

export class ApiClient {
  readonly nonces: NonceStore;
  readonly pauses: ClassPauses;
  private readonly etags = new Map<string, CacheEntry>();
  private readonly log: Logger;
  constructor(private readonly o: ApiClientOptions) {
    this.nonces = o.nonces ?? new NonceStore();
    this.pauses = o.pauses ?? new ClassPauses(o.clock);
    this.log = o.logger ?? silentLogger;
  }

  get baseUrl(): string {
    return this.o.baseUrl;
  }

  // ---- reads ----
  me(opts?: ReadOptions) {
    return this.read('/v1/me', Me, opts);
  }
  listCards(query: CardsQuery = {}, opts?: ReadOptions) {
    return this.read(`/v1/cards${queryString(query)}`, CardList, opts);
  }
  /** The ETag held for a card's read, if any (what its next read sends as If-None-Match). */
  cardEtag(id: string): string | undefined {
    return this.etags.get(`/v1/cards/${encodeURIComponent(id)}`)?.etag;
  }
  async getCard(id: string, opts?: ReadOptions): Promise<Card> {
    return (await this.read(`/v1/cards/${encodeURIComponent(id)}`, CardEnvelope, opts)).card;
  }
  changes(query: ChangesQuery = {}, opts?: ReadOptions) {
    return this.read(`/v1/changes${queryString(query)}`, ChangeList, opts, (query.wait ?? 0) > 0);
  }
  async assistants(opts?: ReadOptions): Promise<Assistant[]> {
    return (await this.read('/v1/assistants', AssistantList, opts)).assistants;
  }

  // ---- writes (card actions) ----
  answer(id: string, body: AnswerBody, w: WriteOptions) {
    return this.write(`/v1/cards/${encodeURIComponent(id)}/answer`, body, AnswerResult, w);
  }
  undo(id: string, w: WriteOptions) {
    return this.write(`/v1/cards/${encodeURIComponent(id)}/undo`, {}, StatusResult, w);
  }
  message(id: string, body: MessageBody, w: WriteOptions) {
    return this.write(`/v1/cards/${encodeURIComponent(id)}/messages`, body, MessageResult, w);
  }
  later(id: string, body: LaterBody, w: WriteOptions) {
    return this.write(`/v1/cards/${encodeURIComponent(id)}/later`, body, LaterResult, w);
  }
  back(id: string, w: WriteOptions) {
    return this.write(`/v1/cards/${encodeURIComponent(id)}/back`, {}, StatusResult, w);
  }
  delegate(id: string, body: DelegateBody, w: WriteOptions) {
    return this.write(`/v1/cards/${encodeURIComponent(id)}/delegate`, body, DelegateResult, w);
  }
  takeBack(id: string, w: WriteOptions) {
    return this.write(`/v1/cards/${encodeURIComponent(id)}/take-back`, {}, StatusResult, w);
  }
  /**
   * A one-time link into the card's page in the service (additive, decisions.md "#35"), asked for
   * on the person's press of "Open in Browser": the page lets them answer only when opened through
   * it. Not a card write (it answers nothing): no key, no retry; the caller falls back to `url`.
   */
  async pageLink(id: string, opts: { signal?: AbortSignal } = {}): Promise<PageLink> {
    const path = `/v1/cards/${encodeURIComponent(id)}/page-link`;
    const { status, body } = await this.exchange('POST', path, { attempts: 1, signal: opts.signal, byPerson: true });
    return this.parse(PageLink, body, status, path);
  }
  /** Presence is not a press: no key, no retry (the next ping is 30 s away). */
  async presence(here: boolean, opts: { signal?: AbortSignal } = {}): Promise<void> {
    await this.exchange('POST', '/v1/presence', { body: { here }, attempts: 1, signal: opts.signal, byPerson: false });
  }

  /** Forget cached bodies (sign-out: the next person must not see them). */
  clearCache(): void {
    this.etags.clear();
    this.pauses.clear();
  }

  // ---- the exchange ----
  private async read<S extends z.ZodMiniType>(path: string, schema: S, opts: ReadOptions = {}, waits = false): Promise<z.infer<S>> {
    const { status, body } = await this.exchange('GET', path, {
      attempts: opts.attempts ?? 4,
      signal: opts.signal,
      cacheKey: path,
      waits,
      byPerson: opts.byPerson ?? false,
    });
    return this.parse(schema, body, status, path);
  }

  private async write<S extends z.ZodMiniType>(path: string, body: unknown, schema: S, w: WriteOptions): Promise<z.infer<S>> {
    const res = await this.exchange('POST', path, {
      body,
      attempts: MAX_WRITE_ATTEMPTS,
      idempotencyKey: w.idempotencyKey,
      stillWaiting: w.stillWaiting,
      signal: w.signal,
      byPerson: true,
    });
    return this.parse(schema, res.body, res.status, path);
  }

  private parse<S extends z.ZodMiniType>(schema: S, body: unknown, status: number, path: string): z.infer<S> {
    const r = schema.safeParse(body);
    if (!r.success) {
      const issues = r.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
      throw new MalformedResponseError('schema', status, this.o.baseUrl + path, issues);
    }
    return r.data;
  }

  private async exchange(
    method: 'GET' | 'POST',
    path: string,
    x: {
      body?: unknown;
      attempts: number;
      signal?: AbortSignal;
      cacheKey?: string;
      idempotencyKey?: string;
      stillWaiting?: () => boolean;
      waits?: boolean;
      byPerson?: boolean;
    },
  ): Promise<{ status: number; body: unknown }> {
    const url = this.o.baseUrl + path;
    const isWrite = method === 'POST';
    const classes = classesOf(method, pathOnly(path), x.waits ?? false);
    const mayRetry = () => !x.signal?.aborted && (!isWrite || !x.stillWaiting || x.stillWaiting());
    let failures = 0;
    let tokenRenewed = false;
    let token = await this.o.auth.accessToken();
    for (;;) {
      const cached = x.cacheKey ? this.etags.get(x.cacheKey) : undefined;
      let answer: DpopAnswer;
      try {
        answer = await sendDpopBound({
          method, url, endpoint: 'resource', nonces: this.nonces, serverTime: this.o.serverTime,
          beforeProof: () => this.waitOutPause(classes, method, path, url, x.signal),
          proof: (nonce) => this.o.auth.proof(method, url, token, nonce),
          send: (dpop) => {
            const headers: Record<string, string> = {
              accept: 'application/json, application/problem+json',
              authorization: `DPoP ${token}`,
              dpop: dpop ?? '',
              'service-version': SERVICE_VERSION,
              'user-agent': this.o.userAgent,
            };
            if (cached) headers['if-none-match'] = cached.etag;
            if (x.body !== undefined) headers['content-type'] = 'application/json';
            if (x.idempotencyKey) headers['idempotency-key'] = x.idempotencyKey;
            // Every send, the first included, happens only while the person still waits on a write:
            // getting a token (maybe a refresh) or a proof can take long enough for them to move on.
            if (isWrite && !mayRetry()) throw new AbortedError();
            this.o.onRequest?.({ method, path: pathOnly(path), waits: x.waits ?? false, byPerson: x.byPerson ?? isWrite });
            return this.o.transport.send({
              method,
              url,
              headers,
              body: x.body === undefined ? undefined : JSON.stringify(x.body),
              // A write in flight is never aborted: its outcome must be learned, and a retry reuses the key.
              signal: isWrite ? undefined : x.signal,
            });
          },
        });
      } catch (e) {
        if (x.signal?.aborted) throw new AbortedError();
        if (!(e instanceof NetworkError)) throw e;
        if (++failures < x.attempts && mayRetry()) {
          this.log.warn('request failed, retrying', { method, path: pathOnly(path), attempt: failures, cause: e.causeMessage });
          await sleep(this.o.timers, backoffDelay(failures - 1, { random: this.o.random }), x.signal);
          if (!mayRetry()) throw e;
          continue;
        }
        throw e;
      }
      const { res } = answer;

      if (res.status === 304 && cached) return { status: 200, body: cached.body };
      if (res.status === 204) return { status: 204, body: undefined };
      if (res.status >= 200 && res.status < 300) {
        const body = readJson(res, url);
        const etag = res.headers['etag'];
        if (x.cacheKey && etag) this.remember(x.cacheKey, etag, body);
        return { status: res.status, body };
      }

      if (answer.refusal) {
        if (answer.refusal.error === 'invalid_token' && !tokenRenewed) {
          tokenRenewed = true;
          token = await this.o.auth.renewAfterRejection(token);
          continue;
        }
        throw answer.refusal;
      }
      const refusal = this.refusal(res, url);
      const status = res.status;
      // The whole class waits Retry-After, not only this request (the next send waits it out).
      const retryAfter = status === 429 ? retryAfterMs(res, this.o.clock.now()) : 0;
      if (status === 429) this.pauses.pause(classes, retryAfter);
      const retryable =
        refusal instanceof NetworkError ||
        status === 429 ||
        status >= 500 ||
        (isWrite && refusal instanceof ApiProblemError && refusal.code === 'idempotency_in_progress');
      if (retryable && ++failures < x.attempts && mayRetry()) {
        // A long Retry-After is the person's to wait out, not a retry's: the refusal tells them.
        if (retryAfter > MAX_RETRY_AFTER_MS) throw refusal;
        const wait = status === 429 ? retryAfter : backoffDelay(failures - 1, { random: this.o.random });
        this.log.warn('request refused, retrying', { method, path: pathOnly(path), status, attempt: failures, waitMs: wait });
        // A 429's wait is the class pause, waited out at the top of the loop.
        if (status !== 429) await sleep(this.o.timers, wait, x.signal);
        if (!mayRetry()) throw refusal;
        continue;
      }
      throw refusal;
    }
  }

  /** Waits while a 429 pauses this request's class; a pause longer than a retry would wait is refused at once. */
  private async waitOutPause(classes: ReturnType<typeof classesOf>, method: string, path: string, url: string, signal: AbortSignal | undefined): Promise<void> {
    const wait = this.pauses.remaining(classes);
    if (wait <= 0) return;
    if (wait > MAX_RETRY_AFTER_MS) {
      const seconds = Math.ceil(wait / 1000);
      throw new ApiProblemError({
        type: `${this.o.baseUrl}/docs/api/errors#rate_limited`, title: 'Too many requests', status: 429, code: 'rate_limited',
        detail: `Paused by the service's last rate limit for ${seconds} s more.`, requestId: 'rid_client',
      }, url, seconds);
    }
    this.log.info('request waits out a rate limit of its class', { method, path: pathOnly(path), waitMs: wait });
    await sleep(this.o.timers, wait, signal);
  }

  private remember(key: string, etag: string, body: unknown) {
    this.etags.delete(key);
    this.etags.set(key, { etag, body });
    if (this.etags.size > MAX_CACHE) {
      const oldest = this.etags.keys().next().value;
      if (oldest !== undefined) this.etags.delete(oldest);
    }
  }

  /**
   * Turns a refusal that is not a sign-in refusal (sendDpopBound found those) into its typed
   * error. Any 401/403 or 5xx that is not the service's problem came from something in between
   * (gateway, proxy): transient, whatever its body.
   */
  private refusal(res: HttpResponse, url: string): ApiProblemError | MalformedResponseError | NetworkError {
    const type = res.headers['content-type'] ?? '';
    if (/problem\+json/i.test(type)) {
      let body: unknown;
      try {
        body = res.text ? JSON.parse(res.text) : undefined;
      } catch {
        body = undefined;
      }
      const p = Problem.safeParse(body);
      if (p.success) {
        const ra = res.headers['retry-after'];
        return new ApiProblemError(p.data, url, ra !== undefined ? Number(ra) : undefined);
      }
    }
    if (res.status >= 500 || res.status === 401 || res.status === 403) return new NetworkError(url, `${res.status} from between here and the service`);
    return new MalformedResponseError(isJsonType(type) ? 'schema' : 'content-type', res.status, url, `refusal ${res.status} without a problem body`);
  }
}

/** Retry-After longer than this is not waited out inside one request. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** `Retry-After` in seconds (or an HTTP date); 1 s when missing or unreadable. */
export function retryAfterMs(res: HttpResponse, now = Date.now()): number {
  const v = res.headers['retry-after'];
  if (!v) return 1000;
  const secs = Number(v);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const date = Date.parse(v);
  return Number.isFinite(date) ? Math.max(0, date - now) : 1000;
}

export function queryString(q: object): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) p.append(k, String(item));
    else p.append(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

function pathOnly(path: string): string {
  return path.split('?')[0] ?? path;
}
