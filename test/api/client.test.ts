// The API client against a scripted transport: every rule of the client core's requests that needs exact control
// of the answers (every problem code, malformed answers, nonce, 429, retries, ETag).
import { strict as assert } from 'node:assert';
import { ApiClient } from '../../src/api/client';
import type { RequestAuth } from '../../src/api/client';
import { ApiProblemError, MalformedResponseError, NetworkError, OAuthRefusalError } from '../../src/api/errors';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/api/http';
import { PROBLEM_CODES, SERVICE_VERSION } from '../../src/api/schemas';
import { PROBLEM_STATUS } from '../../src/sandbox/problems';
import { ServerTime } from '../../src/api/server-time';
import { ManualClock } from '../kit/clock';
import { fixedClock, immediateTimers } from '../kit/clocks';

type Reply = HttpResponse | Error | ((req: HttpRequest) => HttpResponse | Error);

class Scripted implements HttpTransport {
  readonly seen: HttpRequest[] = [];
  constructor(private readonly replies: Reply[]) {}
  async send(req: HttpRequest): Promise<HttpResponse> {
    this.seen.push(req);
    let r = this.replies.shift();
    if (r === undefined) throw new Error(`unexpected request ${req.method} ${req.url}`);
    if (typeof r === 'function') r = r(req);
    if (r instanceof Error) throw r;
    return r;
  }
  async close() {}
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  status, headers: { 'content-type': 'application/json', 'dpop-nonce': 'n-srv', ...headers }, text: JSON.stringify(body),
});
const problem = (code: string, status: number, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: { 'content-type': 'application/problem+json', ...headers },
  text: JSON.stringify({ type: `http://svc/docs/api/errors#${code}`, title: 't', status, code, detail: `d-${code}`, requestId: 'rid_1', ...extra }),
});
const card = { id: 'req_1', version: 2, status: 'pending', turn: 'you', kind: 'choice', title: 'T' };

function client(replies: Reply[], o: { proofs?: { nonce?: string; token?: string }[]; renew?: () => Promise<string> } = {}) {
  const transport = new Scripted(replies);
  const timers = new ManualClock({ start: 0 });
  const slept: number[] = [];
  const fastTimers = immediateTimers(slept);
  const proofs = o.proofs ?? [];
  const auth: RequestAuth = {
    accessToken: async () => 'at-1',
    renewAfterRejection: o.renew ?? (async () => 'at-2'),
    proof: async (_htm, _url, token, nonce) => {
      proofs.push({ nonce, token });
      return `proof-${proofs.length}`;
    },
  };
  const api = new ApiClient({
    baseUrl: 'http://svc', transport, auth, clock: timers, timers: fastTimers, userAgent: 'assistant-cards-vscode/1.2.3', random: () => 0.5,
  });
  return { api, transport, slept, proofs };
}

const write = (key = 'key-1', waiting = () => true) => ({ idempotencyKey: key, stillWaiting: waiting });

describe('api client: requests, retries and typed errors', () => {
  it('every request has a fresh proof, Service-Version and a User-Agent naming the app', async () => {
    const { api, transport } = client([json(200, { card }), json(200, { card })]);
    await api.getCard('req_1');
    await api.getCard('req_2');
    const [a, b] = transport.seen;
    assert.equal(a!.headers['service-version'], SERVICE_VERSION);
    assert.match(a!.headers['user-agent']!, /^assistant-cards-vscode\/1\.2\.3/);
    assert.equal(a!.headers.authorization, 'DPoP at-1');
    assert.notEqual(a!.headers.dpop, b!.headers.dpop);
  });

  it('remembers DPoP-Nonce from every answer and uses it in the next proof', async () => {
    const proofs: { nonce?: string }[] = [];
    const { api } = client([json(200, { card }, { 'dpop-nonce': 'n-A' }), json(200, { card }, { 'dpop-nonce': 'n-B' }), json(200, { card })], { proofs });
    await api.getCard('req_1');
    await api.getCard('req_1');
    await api.getCard('req_1');
    assert.deepEqual(proofs.map((p) => p.nonce), [undefined, 'n-A', 'n-B']);
  });

  it('use_dpop_nonce is retried exactly once with the new nonce', async () => {
    const nonceRefusal = (n: string): HttpResponse => ({
      status: 401, headers: { 'www-authenticate': 'DPoP error="use_dpop_nonce", error_description="new nonce"', 'dpop-nonce': n, 'content-type': 'application/json' },
      text: JSON.stringify({ error: 'use_dpop_nonce', error_description: 'new nonce' }),
    });
    const proofs: { nonce?: string }[] = [];
    const ok = client([nonceRefusal('n-1'), json(200, { card })], { proofs });
    await ok.api.getCard('req_1');
    assert.deepEqual(proofs.map((p) => p.nonce), [undefined, 'n-1']);
    const twice = client([nonceRefusal('n-1'), nonceRefusal('n-2')]);
    await assert.rejects(twice.api.getCard('req_1'), (e: unknown) => e instanceof OAuthRefusalError && e.error === 'use_dpop_nonce');
    assert.equal(twice.transport.seen.length, 2, 'once, not again');
  });

  it('invalid_token: the token is renewed once and the request repeated; a second refusal is thrown', async () => {
    const refusal: HttpResponse = { status: 401, headers: { 'www-authenticate': 'DPoP error="invalid_token"' }, text: '' };
    const { api, transport } = client([refusal, json(200, { card })]);
    await api.getCard('req_1');
    assert.equal(transport.seen[1]!.headers.authorization, 'DPoP at-2');
    const again = client([refusal, refusal]);
    await assert.rejects(again.api.getCard('req_1'), (e: unknown) => e instanceof OAuthRefusalError && e.error === 'invalid_token' && e.status === 401);
  });

  it('insufficient_scope is an OAuth refusal naming the scope', async () => {
    const { api } = client([{ status: 403, headers: { 'www-authenticate': 'DPoP error="insufficient_scope", scope="cards:answer"', 'content-type': 'application/json' }, text: '{"error":"insufficient_scope"}' }]);
    await assert.rejects(api.answer('req_1', { version: 1 }, write()), (e: unknown) => e instanceof OAuthRefusalError && e.error === 'insufficient_scope' && e.scope === 'cards:answer');
  });

  for (const code of PROBLEM_CODES) {
    it(`problem ${code} becomes ApiProblemError with code, status, detail, requestId, url`, async () => {
      const status = PROBLEM_STATUS[code];
      const extra = code === 'high_stakes' ? { url: 'http://svc/cards/req_1' } : code === 'invalid' ? { errors: [{ field: 'version', reason: 'required' }] } : {};
      // Retryable statuses are answered the same way every time; the last refusal is thrown.
      const replies = Array.from({ length: 6 }, () => problem(code, status, extra, status === 429 ? { 'retry-after': '0' } : {}));
      const { api } = client(replies);
      await assert.rejects(api.answer('req_1', { version: 1 }, write('k', () => true)), (e: unknown) => {
        assert.ok(e instanceof ApiProblemError);
        assert.equal(e.code, code);
        assert.equal(e.status, status);
        assert.equal(e.detail, `d-${code}`);
        assert.equal(e.requestId, 'rid_1');
        assert.equal(e.requestUrl, 'http://svc/v1/cards/req_1/answer');
        if (code === 'high_stakes') assert.equal(e.url, 'http://svc/cards/req_1');
        if (code === 'invalid') assert.deepEqual(e.errors, [{ field: 'version', reason: 'required' }]);
        return true;
      });
    });
  }

  it('an unknown problem code still becomes ApiProblemError (codes may be added)', async () => {
    const { api } = client([problem('brand_new', 409)]);
    await assert.rejects(api.back('req_1', write()), (e: unknown) => e instanceof ApiProblemError && e.code === 'brand_new');
  });

  it('malformed answers are MalformedResponseError, never a crash: bad JSON, wrong type, wrong shape', async () => {
    const { api } = client([
      { status: 200, headers: { 'content-type': 'application/json' }, text: '{"card": ' },
      { status: 200, headers: { 'content-type': 'text/html' }, text: '<html>' },
      json(200, { card: { id: 'req_1' } }),
      { status: 418, headers: { 'content-type': 'text/plain' }, text: 'teapot' },
    ]);
    await assert.rejects(api.getCard('req_1'), (e: unknown) => e instanceof MalformedResponseError && e.reason === 'json');
    await assert.rejects(api.getCard('req_1'), (e: unknown) => e instanceof MalformedResponseError && e.reason === 'content-type');
    await assert.rejects(api.getCard('req_1'), (e: unknown) => e instanceof MalformedResponseError && e.reason === 'schema' && /version/.test(e.message));
    await assert.rejects(api.getCard('req_1'), (e: unknown) => e instanceof MalformedResponseError);
  });

  it('ETag: the next read sends If-None-Match and a 304 gives the cached body', async () => {
    const { api, transport } = client([json(200, { card }, { etag: '"e1"' }), { status: 304, headers: { etag: '"e1"' }, text: '' }]);
    const a = await api.getCard('req_1');
    const b = await api.getCard('req_1');
    assert.equal(transport.seen[0]!.headers['if-none-match'], undefined);
    assert.equal(transport.seen[1]!.headers['if-none-match'], '"e1"');
    assert.deepEqual(b, a);
  });

  it('429 waits Retry-After and repeats', async () => {
    const { api, slept, transport } = client([problem('rate_limited', 429, {}, { 'retry-after': '7' }), json(200, { card })]);
    await api.getCard('req_1');
    assert.deepEqual(slept, [7000]);
    assert.equal(transport.seen.length, 2);
  });

  describe('a 429 pauses its whole limit class (injected clock)', () => {
    const flush = async () => {
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    };
    function paused() {
      const timers = new ManualClock({ start: 0 });
      const replies = new Map<string, Reply[]>();
      const seen: { at: number; path: string }[] = [];
      const transport: HttpTransport = {
        async send(req) {
          const path = new URL(req.url).pathname;
          seen.push({ at: timers.now(), path });
          const r = replies.get(path)?.shift() ?? json(200, { card });
          return typeof r === 'function' ? (r(req) as HttpResponse) : (r as HttpResponse);
        },
        async close() {},
      };
      const auth: RequestAuth = { accessToken: async () => 'at-1', renewAfterRejection: async () => 'at-2', proof: async () => 'p' };
      const api = new ApiClient({ baseUrl: 'http://svc', transport, auth, clock: timers, timers, userAgent: 'u/1', random: () => 0.5 });
      return { api, timers, replies, seen };
    }

    it('after a 429 Retry-After 5 on one read, a read of another card is not sent before 5 s', async () => {
      const { api, timers, replies, seen } = paused();
      replies.set('/v1/cards/req_a', [problem('rate_limited', 429, {}, { 'retry-after': '5' })]);
      const a = api.getCard('req_a');
      await flush();
      timers.advance(380);
      const b = api.getCard('req_b');
      await flush();
      assert.deepEqual(seen.map((s) => s.path), ['/v1/cards/req_a'], 'the second read waits');
      timers.advance(5000 - 380 - 1);
      await flush();
      assert.equal(seen.length, 1, 'not before Retry-After has passed');
      timers.advance(1);
      await flush();
      await Promise.all([a, b]);
      assert.deepEqual(seen.map((s) => `${s.at} ${s.path}`).sort(), ['0 /v1/cards/req_a', '5000 /v1/cards/req_a', '5000 /v1/cards/req_b']);
    });

    it('other classes are not paused: a write goes at once after a read was limited', async () => {
      const { api, replies, seen } = paused();
      replies.set('/v1/cards/req_a', [problem('rate_limited', 429, {}, { 'retry-after': '5' })]);
      void api.getCard('req_a').catch(() => undefined);
      await flush();
      replies.set('/v1/cards/req_b/back', [json(200, { id: 'req_b', status: 'pending', version: 2 })]);
      const r = api.back('req_b', write());
      await flush();
      assert.equal((await r).version, 2);
      assert.deepEqual(seen.map((s) => s.path), ['/v1/cards/req_a', '/v1/cards/req_b/back']);
    });

    it('a pause over 60 s is the person\'s: a press of that class is refused at once with the time left, nothing sent', async () => {
      const { api, replies, seen } = paused();
      replies.set('/v1/cards/req_a/back', [problem('rate_limited', 429, {}, { 'retry-after': '120' })]);
      await assert.rejects(api.back('req_a', write()), (e: unknown) => e instanceof ApiProblemError && e.code === 'rate_limited');
      await assert.rejects(api.later('req_b', { until: '2026-01-01T10:00:00Z' }, write('k2')), (e: unknown) => e instanceof ApiProblemError && e.code === 'rate_limited' && e.retryAfterSeconds === 120);
      assert.deepEqual(seen.map((s) => s.path), ['/v1/cards/req_a/back'], 'the second press was not sent');
    });
  });

  it('reads retry 5xx and network errors with backoff and jitter, then give up', async () => {
    const { api, slept, transport } = client([problem('unavailable', 503), new NetworkError('http://svc/v1/me', 'ECONNRESET'), json(200, { card })]);
    await api.getCard('req_1');
    assert.equal(transport.seen.length, 3);
    assert.deepEqual(slept, [375, 750], 'attempt 0 then 1, jitter 0.5 of [cap/2, cap]');
    const gaveUp = client(Array.from({ length: 4 }, () => problem('server_error', 500)));
    await assert.rejects(gaveUp.api.getCard('req_1'), (e: unknown) => e instanceof ApiProblemError && e.code === 'server_error');
    assert.equal(gaveUp.transport.seen.length, 4);
  });

  it('a write retries with the same Idempotency-Key while the person waits, never another key', async () => {
    const { api, transport } = client([
      new NetworkError('http://svc', 'socket hang up'), problem('unavailable', 503), problem('idempotency_in_progress', 409),
      json(200, { id: 'req_1', status: 'answered', version: 3, undoUntil: '2026-01-01T00:00:05Z' }, { 'idempotent-replayed': 'true' }),
    ]);
    const r = await api.answer('req_1', { version: 2, choiceIds: ['a'] }, write('press-key'));
    assert.equal(r.status, 'answered');
    assert.equal(transport.seen.length, 4);
    assert.deepEqual(new Set(transport.seen.map((s) => s.headers['idempotency-key'])), new Set(['press-key']));
    assert.ok(transport.seen.every((s) => s.body === JSON.stringify({ version: 2, choiceIds: ['a'] })));
  });

  it('a write is not retried once the person moved on', async () => {
    let waiting = true;
    const { api, transport } = client([(_req) => {
      waiting = false; // the person closed the panel while the first try failed
      return problem('unavailable', 503);
    }, json(200, {})]);
    await assert.rejects(api.answer('req_1', { version: 2 }, write('k', () => waiting)), (e: unknown) => e instanceof ApiProblemError && e.code === 'unavailable');
    assert.equal(transport.seen.length, 1);
  });

  it('4xx problems other than 429 are never retried', async () => {
    const { api, transport } = client([problem('version_conflict', 409), json(200, {})]);
    await assert.rejects(api.answer('req_1', { version: 1 }, write()), ApiProblemError);
    assert.equal(transport.seen.length, 1);
  });

  it('routes: paths, methods, bodies and query strings', async () => {
    const ok = { id: 'req_1', status: 'pending', version: 3 };
    const { api, transport } = client([
      json(200, { user: { id: 'usr_1' }, workspace: { id: 'ws_1' }, app: { id: 'app_1', name: 'a', verified: false }, grant: { id: 'apg_1', scopes: [], reach: 'machine', dpop: true, createdAt: 'x', expiresAt: 'y' } }),
      json(200, { cards: [card], next: null }),
      json(200, { changes: [], cursor: 'c1', more: false }),
      json(200, { assistants: [] }),
      json(200, { id: 'req_1', status: 'answered', version: 3, undoUntil: 'u' }),
      json(200, ok),
      json(200, { id: 'req_1', messageId: 'msg_1', turn: 'agent', version: 4 }),
      json(200, { ...ok, status: 'snoozed', until: 'u' }),
      json(200, ok),
      json(200, { ...ok, status: 'delegated', hears: 'while-working', undoUntil: 'u' }),
      json(200, ok),
      { status: 204, headers: {}, text: '' },
    ]);
    await api.me();
    await api.listCards({ status: 'pending', assistant: ['con_a', 'con_b'], limit: 100, whole: 3 });
    await api.changes({ after: 'c0', wait: 25 });
    await api.assistants();
    await api.answer('req_1', { version: 2, choiceIds: ['a'] }, write('k1'));
    await api.undo('req_1', write('k2'));
    await api.message('req_1', { body: 'hi' }, write('k3'));
    await api.later('req_1', { until: '1h', timeZone: 'Europe/Berlin' }, write('k4'));
    await api.back('req_1', write('k5'));
    await api.delegate('req_1', { to: { assistantId: 'con_b' }, mode: 'loop' }, write('k6'));
    await api.takeBack('req_1', write('k7'));
    await api.presence(true);
    assert.deepEqual(transport.seen.map((s) => `${s.method} ${s.url.replace('http://svc', '')}`), [
      'GET /v1/me',
      'GET /v1/cards?status=pending&assistant=con_a&assistant=con_b&limit=100&whole=3',
      'GET /v1/changes?after=c0&wait=25',
      'GET /v1/assistants',
      'POST /v1/cards/req_1/answer',
      'POST /v1/cards/req_1/undo',
      'POST /v1/cards/req_1/messages',
      'POST /v1/cards/req_1/later',
      'POST /v1/cards/req_1/back',
      'POST /v1/cards/req_1/delegate',
      'POST /v1/cards/req_1/take-back',
      'POST /v1/presence',
    ]);
    const presence = transport.seen.at(-1)!;
    assert.equal(presence.body, '{"here":true}');
    assert.equal(presence.headers['idempotency-key'], undefined, 'presence is not a press');
    assert.deepEqual(transport.seen.slice(4, 11).map((s) => s.headers['idempotency-key']), ['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7']);
  });

  it("a proof refused for this computer's clock is made again once on the service's time (Date)", async () => {
    const local = fixedClock('2026-05-01T12:02:00Z'); // two minutes ahead
    const serverTime = new ServerTime(local);
    const iats: number[] = [];
    const refusal = (): HttpResponse => ({
      status: 401, headers: { 'www-authenticate': 'DPoP error="invalid_dpop_proof"', date: 'Fri, 01 May 2026 12:00:00 GMT', 'content-type': 'application/json' },
      text: JSON.stringify({ error: 'invalid_dpop_proof', error_description: 'iat is more than 60 s from the server clock' }),
    });
    const transport = new Scripted([refusal(), json(200, { card })]);
    const auth: RequestAuth = {
      accessToken: async () => 'at',
      renewAfterRejection: async () => 'at',
      proof: async () => {
        iats.push(Math.floor(serverTime.now() / 1000));
        return 'p';
      },
    };
    const api = new ApiClient({ baseUrl: 'http://svc', transport, auth, clock: local, timers: { setTimeout: (fn) => { fn(); return { cancel() {} }; } }, userAgent: 'x', serverTime });
    await api.getCard('req_1');
    assert.equal(iats.length, 2);
    assert.ok(Math.abs(iats[1]! - Date.parse('2026-05-01T12:00:00Z') / 1000) <= 1, 'the repeat uses the service time');
    // Refused again after the correction: the correction is undone and the refusal thrown.
    const t2 = new ServerTime(local);
    const api2 = new ApiClient({ baseUrl: 'http://svc', transport: new Scripted([refusal(), refusal()]), auth, clock: local, timers: { setTimeout: (fn) => { fn(); return { cancel() {} }; } }, userAgent: 'x', serverTime: t2 });
    await assert.rejects(api2.getCard('req_1'), (e: unknown) => e instanceof OAuthRefusalError && e.error === 'invalid_dpop_proof');
    assert.equal(t2.skewMs, 0);
  });
});
