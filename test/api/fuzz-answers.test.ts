// Malformed server answers: a tiny fake server on 127.0.0.1:0 answers the real API client
// (real undici transport over loopback) with answers fuzzed by fast-check from the schemas: wrong
// types, missing fields, huge arrays, invalid JSON, wrong content types and statuses. Every call
// ends in a parsed value that satisfies the schema or a typed ClientError, never anything else;
// and the card model, fed the same answers, keeps what it had and works again once the server
// answers well.
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { ApiClient } from '../../src/api/client';
import type { RequestAuth } from '../../src/api/client';
import { ClientError, OAuthRefusalError } from '../../src/api/errors';
import { createTransport } from '../../src/api/http';
import type { HttpTransport } from '../../src/api/http';
import { AssistantList, CardEnvelope, CardList, ChangeList, Me } from '../../src/api/schemas';
import { testCardModel } from '../sync/card-model-ports';
import { immediateTimers, realClock } from '../kit/clocks';

interface Answer {
  status: number;
  contentType: string | undefined;
  body: string;
  headers?: Record<string, string>;
}

/** The fake service: answers every request with `next` (or `valid` for the route when set). */
async function fakeServer() {
  const state: { next: Answer; seen: number } = { next: { status: 200, contentType: 'application/json', body: '{}' }, seen: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.seen++;
      const a = state.next;
      const headers: Record<string, string> = { ...(a.headers ?? {}) };
      if (a.contentType !== undefined) headers['content-type'] = a.contentType;
      try {
        res.writeHead(a.status, headers);
        res.end(a.status === 204 || a.status === 304 ? undefined : a.body);
      } catch {
        res.destroy();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, state, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

const nowIso = new Date().toISOString();
const validCard = {
  id: 'req_fuzz1', version: 3, status: 'pending', turn: 'you', kind: 'choice', title: 'Pick', urgency: 'normal', blocking: false,
  threadId: 'thr_1', summary: 's', options: [{ id: 'a', label: 'A' }], createdAt: nowIso, changedAt: nowIso,
  assistant: { id: 'ast_1', name: 'Claude', app: 'claude-code' }, agent: { id: 'agt_1', name: 'main' },
};
const validBodies = {
  cards: { cards: [validCard], next: null },
  card: { card: validCard },
  changes: { changes: [{ type: 'card.changed', cardId: 'req_fuzz1', at: nowIso }], cursor: 'c1', more: false },
  me: { user: { id: 'usr_1', name: 'P' }, workspace: { id: 'ws_1', name: 'W' }, grant: { scopes: ['cards:read'], reach: 'machine' } },
  assistants: { assistants: [] },
};

/** Sets `path` (a list of keys) in a deep copy of `base` to `value`, or deletes it. */
function mutate(base: unknown, path: (string | number)[], value: unknown, remove: boolean): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) {
    const next = at[k];
    if (next === null || typeof next !== 'object') return copy;
    at = next as Record<string | number, unknown>;
  }
  const last = path.at(-1);
  if (last === undefined) return value;
  if (remove) delete at[last];
  else at[last] = value;
  return copy;
}

/** Every path into a JSON value (for the mutations). */
function pathsOf(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) pathsOf(x, [...prefix, Array.isArray(v) ? Number(k) : k], out);
  return out;
}

const wrongValue = fc.oneof(
  fc.anything(),
  fc.constant(null),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.constant(Array.from({ length: 20_000 }, (_, i) => ({ id: `o${i}` }))), // huge array of wrong items
  fc.constant('x'.repeat(200_000)),
);

/** A body for one route: a valid one mutated (wrong type, missing field), a huge one, or junk. */
function bodyFor(route: keyof typeof validBodies): fc.Arbitrary<string> {
  const base = validBodies[route];
  const paths = pathsOf(base);
  return fc.oneof(
    { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...paths), wrongValue, fc.boolean()).map(([p, v, rm]) => JSON.stringify(mutate(base, p, v, rm))) },
    { weight: 1, arbitrary: fc.constant(JSON.stringify(route === 'cards' ? { cards: Array.from({ length: 5_000 }, () => validCard), next: null } : base)) },
    { weight: 2, arbitrary: fc.json() },
    { weight: 2, arbitrary: fc.string() }, // mostly invalid JSON
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"cards": [', 'null', '[]', '<html>oops</html>', '\u0000\u0001', '{"__proto__": {"polluted": 1}}') },
  );
}

const answerFor = (route: keyof typeof validBodies): fc.Arbitrary<Answer> =>
  fc.record({
    status: fc.oneof({ weight: 4, arbitrary: fc.constant(200) }, { weight: 2, arbitrary: fc.constantFrom(201, 204, 304, 400, 401, 403, 404, 409, 422, 429, 500, 502, 503) }, { weight: 1, arbitrary: fc.integer({ min: 200, max: 599 }) }),
    contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/problem+json', 'text/html', 'text/plain', 'application/octet-stream', undefined),
    body: bodyFor(route),
    headers: fc.option(fc.record({
      'retry-after': fc.constantFrom('0', '-1', 'soon', 'Wed, 21 Oct 2015 07:28:00 GMT', '1e9'),
      'www-authenticate': fc.constantFrom('DPoP error="invalid_token"', 'DPoP error="use_dpop_nonce"', 'garbage', 'DPoP error="insufficient_scope", scope="cards:answer"'),
      'dpop-nonce': fc.string({ maxLength: 40 }).filter((s) => /^[\x21-\x7e]*$/.test(s)),
      etag: fc.constantFrom('"e1"', 'W/"e2"', ''),
    }, { requiredKeys: [] }), { nil: undefined }),
  });

// One seed for every run, so a failure comes back the same on the next run (FUZZ_SEED tries others).
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const runs = (numRuns: number) => ({ numRuns, seed: SEED });

describe('fuzzed server answers: typed errors, never a crash, the model keeps working', function () {
  this.timeout(120_000);
  let srv: Awaited<ReturnType<typeof fakeServer>>;
  let transport: HttpTransport;
  let api: ApiClient;

  before(async () => {
    srv = await fakeServer();
    transport = createTransport();
    const auth: RequestAuth = {
      accessToken: async () => 'at-fuzz',
      renewAfterRejection: async () => {
        throw new OAuthRefusalError(401, 'invalid_token', 'refused again', srv.url);
      },
      proof: async () => 'proof',
    };
    // Retries wait on these timers: no real waiting in the test.
    const timers = immediateTimers();
    api = new ApiClient({ baseUrl: srv.url, transport, auth, clock: realClock, timers, userAgent: 'fuzz/1', random: () => 0.5 });
  });
  after(async () => {
    await transport.close();
    await srv.close();
  });

  /** One call: either a value the schema accepts, or a ClientError. Anything else fails the property. */
  async function check(call: () => Promise<unknown>, schema: { safeParse(v: unknown): { success: boolean } } | undefined): Promise<void> {
    // Each run is its own moment: a class paused by an earlier run's 429 would hide this run's answer.
    api.pauses.clear();
    try {
      const v = await call();
      if (schema) assert.ok(schema.safeParse(v).success, 'a value handed out passes its schema');
    } catch (e) {
      assert.ok(e instanceof ClientError, `not a typed error: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
      assert.ok(e.message.length > 0, 'the error says what happened');
    }
  }

  it('reads: listCards, getCard, changes, me, assistants', async () => {
    await fc.assert(fc.asyncProperty(answerFor('cards'), async (a) => { srv.state.next = a; await check(() => api.listCards({ status: 'pending' }), CardList); }), runs(120));
    await fc.assert(fc.asyncProperty(answerFor('card'), async (a) => { srv.state.next = a; await check(async () => ({ card: await api.getCard('req_fuzz1') }), CardEnvelope); }), runs(120));
    await fc.assert(fc.asyncProperty(answerFor('changes'), async (a) => { srv.state.next = a; await check(() => api.changes({ after: 'c0' }), ChangeList); }), runs(80));
    await fc.assert(fc.asyncProperty(answerFor('me'), async (a) => { srv.state.next = a; await check(() => api.me(), Me); }), runs(60));
    await fc.assert(fc.asyncProperty(answerFor('assistants'), async (a) => { srv.state.next = a; await check(async () => ({ assistants: await api.assistants() }), AssistantList); }), runs(60));
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  });

  it('writes: an answer meets fuzzed answers and still ends in a result or a typed error', async () => {
    await fc.assert(fc.asyncProperty(answerFor('card'), async (a) => {
      srv.state.next = a;
      await check(() => api.answer('req_fuzz1', { version: 3, choiceIds: ['a'] }, { idempotencyKey: 'k-fuzz', stillWaiting: () => true }), undefined);
    }), runs(80));
  });

  it('the card model keeps its cards through fuzzed answers and works again when the service answers well', async () => {
    const model = testCardModel({ api, logger: { info() {}, warn() {}, error() {} } });
    model.setScope({ kind: 'machine' });
    const okList = (cards: unknown[]): Answer => ({ status: 200, contentType: 'application/json', body: JSON.stringify({ cards, next: null }) });
    srv.state.next = okList([validCard]);
    await model.fullRead();
    assert.equal(model.get('req_fuzz1')?.title, 'Pick');
    await fc.assert(fc.asyncProperty(answerFor('cards'), answerFor('card'), async (list, one) => {
      api.pauses.clear();
      srv.state.next = list;
      await model.fullRead().catch((e: unknown) => assert.ok(e instanceof ClientError, String(e)));
      srv.state.next = one;
      await model.applyChanges([{ type: 'card.changed', cardId: 'req_fuzz1', at: nowIso }]).catch((e: unknown) => assert.ok(e instanceof ClientError, String(e)));
      // Whatever it holds, the model answers its questions without throwing.
      for (const g of ['pending', 'agent', 'snoozed', 'delegated', 'done'] as const) model.list(g);
      model.counts();
    }), runs(80));
    // The service answers well again (and any rate-limit pause has passed): the model follows.
    api.pauses.clear();
    const fresh = { ...validCard, id: 'req_fuzz2', title: 'After the storm', version: 1 };
    srv.state.next = okList([validCard, fresh]);
    await model.fullRead();
    assert.equal(model.get('req_fuzz2')?.title, 'After the storm');
    assert.equal(model.get('req_fuzz1')?.title, 'Pick');
    assert.equal(model.counts().waiting, 2);
  });
});
