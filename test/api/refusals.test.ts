// Which answers may end a sign-in. Only the service's own challenge (401/403 with a DPoP/Bearer
// WWW-Authenticate on /v1) or an OAuth refusal (400/401 at /oauth/*) does; what a gateway or proxy
// answers (502 JSON with its own `error`, HTML pages, empty bodies, text, a dropped connection)
// is "can't reach the service": a NetworkError, retried like one. A tiny local server plays the
// shapes, through the real transport.
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, NonceStore } from '../../src/api/client';
import type { RequestAuth } from '../../src/api/client';
import { ApiProblemError, NetworkError, OAuthRefusalError } from '../../src/api/errors';
import { createTransport } from '../../src/api/http';
import type { HttpTransport } from '../../src/api/http';
import { DpopKey } from '../../src/auth/dpop';
import { OAuthEndpoints } from '../../src/auth/oauth';
import { fixedClock, immediateTimers, realClock } from '../kit/clocks';

interface Shape {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Close the connection without an answer. */
  drop?: boolean;
}

const card = { id: 'req_1', version: 2, status: 'pending', turn: 'you', kind: 'choice', title: 'T' };
const OK: Shape = { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ card }) };
const TOKENS: Shape = {
  status: 200, headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ access_token: 'at', token_type: 'DPoP', expires_in: 900, refresh_token: 'rt', scope: 'cards:read' }),
};

const SHAPES: Record<string, Shape> = {
  '502 JSON with its own error field': { status: 502, headers: { 'content-type': 'application/json' }, body: '{"error":"upstream_unreachable"}' },
  '502 HTML page': { status: 502, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' },
  '503 empty body': { status: 503 },
  '504 text/plain': { status: 504, headers: { 'content-type': 'text/plain' }, body: 'upstream request timeout' },
  '401 from a proxy without WWW-Authenticate': { status: 401, headers: { 'content-type': 'application/json' }, body: '{"error":"invalid_token"}' },
  '401 with a Basic challenge (a proxy)': { status: 401, headers: { 'www-authenticate': 'Basic realm="proxy"', 'content-type': 'text/html' }, body: '<h1>401</h1>' },
  'a dropped connection': { status: 0, drop: true },
};

describe('refusals: only the service ends a sign-in; gateways and proxies are transient', () => {
  let server: http.Server;
  let base: string;
  let script: Shape[] = [];
  let seen = 0;
  let transport: HttpTransport;

  before(async () => {
    server = http.createServer((req, res) => {
      seen++;
      req.resume();
      const s = script.shift() ?? { status: 500, body: 'script ran out' };
      if (s.drop) {
        req.socket.destroy();
        return;
      }
      res.writeHead(s.status, s.headers ?? {});
      res.end(s.body ?? '');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    transport = createTransport();
  });
  after(async () => {
    await transport.close();
    await new Promise<void>((r) => server.close(() => r()));
  });
  beforeEach(() => {
    script = [];
    seen = 0;
  });

  function client(renewed: string[] = []) {
    const auth: RequestAuth = {
      accessToken: async () => 'at-1',
      renewAfterRejection: async (t) => {
        renewed.push(t);
        return 'at-2';
      },
      proof: async () => 'proof',
    };
    const timers = immediateTimers();
    return new ApiClient({ baseUrl: base, transport, auth, clock: fixedClock(0), timers, userAgent: 't/1', random: () => 0.5 });
  }

  for (const [name, shape] of Object.entries(SHAPES)) {
    it(`/v1 ${name}: NetworkError (can't reach the service), a read retries it and gets the card`, async () => {
      script = [shape, OK];
      const got = await client().getCard('req_1');
      assert.equal(got.id, 'req_1');
      assert.equal(seen, 2, 'retried once');
      script = Array.from({ length: 4 }, () => shape);
      await assert.rejects(client().getCard('req_1'), (e: unknown) => e instanceof NetworkError, 'never an OAuth refusal');
      assert.equal(seen, 2 + 4, 'every attempt of a read');
    });
  }

  it('/v1 write behind a gateway 502: retried with the same key while the person waits', async () => {
    script = [SHAPES['502 JSON with its own error field']!, { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"req_1","status":"answered","version":3,"undoUntil":"2026-01-01T00:00:05Z"}' }];
    const r = await client().answer('req_1', { version: 2, choiceIds: ['a'] }, { idempotencyKey: 'k', stillWaiting: () => true });
    assert.equal(r.status, 'answered');
  });

  it('/v1 500 problem+json from the service: its problem (server_error), retried, never a sign-in refusal', async () => {
    const problem: Shape = {
      status: 500, headers: { 'content-type': 'application/problem+json' },
      body: JSON.stringify({ type: 'x#server_error', title: 't', status: 500, code: 'server_error', detail: 'd', requestId: 'rid_1' }),
    };
    script = Array.from({ length: 4 }, () => problem);
    await assert.rejects(client().getCard('req_1'), (e: unknown) => e instanceof ApiProblemError && e.code === 'server_error');
    assert.equal(seen, 4);
  });

  it('/v1 401 with WWW-Authenticate DPoP invalid_token: an OAuth refusal after one renewal (this ends the sign-in)', async () => {
    const refusal: Shape = { status: 401, headers: { 'www-authenticate': 'DPoP error="invalid_token"', 'content-type': 'application/json' }, body: '{"error":"invalid_token"}' };
    script = [refusal, refusal];
    const renewed: string[] = [];
    await assert.rejects(client(renewed).getCard('req_1'), (e: unknown) => e instanceof OAuthRefusalError && e.error === 'invalid_token' && e.status === 401);
    assert.deepEqual(renewed, ['at-1']);
  });

  describe('/oauth/token', () => {
    let key: DpopKey;
    before(async () => {
      key = (await DpopKey.generate()).key;
    });
    const endpoints = () => new OAuthEndpoints({ baseUrl: base, clientId: 'c', transport, nonces: new NonceStore(), clock: realClock, userAgent: 't/1' });

    it('400 invalid_grant: an OAuth refusal (this ends the sign-in)', async () => {
      script = [{ status: 400, headers: { 'content-type': 'application/json' }, body: '{"error":"invalid_grant"}' }];
      await assert.rejects(endpoints().refresh('rt', key), (e: unknown) => e instanceof OAuthRefusalError && e.error === 'invalid_grant');
    });

    for (const name of ['502 JSON with its own error field', '502 HTML page', '503 empty body', '504 text/plain']) {
      it(`${name}: NetworkError, never an OAuth refusal`, async () => {
        script = [SHAPES[name]!];
        await assert.rejects(endpoints().refresh('rt', key), (e: unknown) => e instanceof NetworkError);
        script = [TOKENS];
        assert.equal((await endpoints().refresh('rt', key)).access_token, 'at');
      });
    }
  });
});
