// Property-based fuzz of every route the sandbox serves (the route table Fastify builds, so a new
// route is fuzzed without touching this file): hostile paths, bodies, headers and content types,
// signed in (a real DPoP proof) or not. Whatever arrives: no 5xx, the sandbox keeps answering, and
// every refusal under /v1 is a problem (application/problem+json with a code) or a sign-in refusal
// (WWW-Authenticate). Bounded: 300 runs, a few seconds.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { dpopProof } from './helpers';
import { makeWorld, type World } from '../kit';

const CONTENT_TYPES = [
  undefined, 'application/json', 'application/json; charset=utf-8', 'application/x-www-form-urlencoded', 'text/plain',
  'multipart/form-data; boundary=x', 'application/xml', 'application/octet-stream', 'application/problem+json',
  'application/json; charset=utf-16', 'APPLICATION/JSON', ';;;', 'a'.repeat(300),
];

const deepJson = fc.integer({ min: 1, max: 150_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);
const hostileText = fc.constantFrom(
  '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}', '{"version":1e400}', '{"version":-0,"approved":"true"}',
  '{"choiceIds":[null,{},[],1e308]}', '{"ms":1e308}', '{"ms":-1}', '{"status":500}', '\u0000\uFFFF\uD800', '[]', 'null', '"x"', '1',
  '{"text":"' + '\u202E'.repeat(1000) + '"}', 'user_code=ABCD-EFGH&action=allow&scope=cards:read', '{"name":"<script>","writeTo":"/etc/passwd"}',
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 6 }),
  hostileText,
  deepJson,
  fc.string({ maxLength: 2_000 }),
  fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b).toString('latin1')),
  fc.integer({ min: 1_000_000, max: 1_200_000 }).map((n) => `{"title":"${'x'.repeat(n)}"}`),
);
const segment = fc.oneof(
  fc.constant('card'), fc.constant('req_nothing'), fc.string({ maxLength: 40 }), fc.constant('x'.repeat(600)),
  fc.constant('..%2f..%2fetc'), fc.constant('%00'), fc.constant('%E0%A4%A'), fc.constant('\u202E'),
);
const query = fc.oneof(
  fc.constant(''), fc.constant('?after=-1&wait=99999&limit=1e9'), fc.constant('?after=%00&status=__proto__'),
  fc.string({ maxLength: 60 }).map((s) => `?${encodeURIComponent(s)}=${encodeURIComponent(s)}`),
  fc.constant(`?user_code=${'A'.repeat(3000)}`),
);
const headerValue = fc.oneof(fc.constant(undefined), fc.string({ maxLength: 80 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')));
const headers = fc.record({
  origin: fc.oneof(fc.constant(undefined), fc.constant('https://evil.example'), fc.constant('null')),
  'service-version': headerValue,
  'idempotency-key': headerValue,
  'if-none-match': headerValue,
  cookie: headerValue,
  'x-forwarded-host': fc.constantFrom(undefined, 'evil.example'),
  dpop: headerValue,
  authorization: fc.oneof(fc.constant(undefined), headerValue.map((v) => (v === undefined ? undefined : `DPoP ${v}`))),
});

describe('sandbox fuzz: every route, hostile input', function () {
  this.timeout(60_000);
  let w: World;
  before(async () => {
    w = await makeWorld();
  });
  after(async () => {
    await w.close();
  });

  it('no 5xx, no crash; /v1 refusals are problem+json (or a sign-in refusal)', async () => {
    const routes = w.sb.sandbox.routes;
    assert.ok(routes.length >= 60, `the route table (${routes.length} routes)`);
    assert.ok(routes.some((r) => r.url === '/_sandbox/machines') && routes.some((r) => r.url === '/cards/:id') && routes.some((r) => r.url === '/in/:token'));
    const card = await w.card({ kind: 'approval', title: 'fuzz target' });
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: routes.length - 1 }), segment, query, fc.constantFrom(...CONTENT_TYPES), body, headers, fc.boolean(),
        async (i, seg, q, type, payload, hdrs, signed) => {
          const route = routes[i]!;
          seen.add(`${route.method} ${route.url}`);
          const path = route.url.replace(/:[A-Za-z]+/g, () => (seg === 'card' ? card.id : encodeURIComponent(seg)));
          const url = `${w.url}${path}${q}`;
          const h: Record<string, string> = {};
          for (const [k, v] of Object.entries(hdrs)) if (v !== undefined) h[k] = v;
          if (type !== undefined) h['content-type'] = type;
          if (signed && path.startsWith('/v1')) {
            h.authorization = `DPoP ${w.me.accessToken}`;
            h.dpop = await dpopProof(w.me.key, { htm: route.method, htu: `${w.url}${path}`, nonce: w.me.nonce, accessToken: w.me.accessToken });
          }
          // The control routes' own handling is what is fuzzed, not only their secret check.
          if (signed && path.startsWith('/_sandbox')) h.authorization = `Bearer ${w.sb.controlSecret}`;
          const sendsBody = payload !== undefined && route.method !== 'GET';
          let res: Response;
          try {
            res = await fetch(url, { method: route.method, headers: h, ...(sendsBody ? { body: payload } : {}), redirect: 'manual' });
          } catch (err) {
            // fetch refuses some header values itself; those never reach the sandbox.
            if (err instanceof TypeError && !/fetch failed/.test(err.message)) return;
            throw err;
          }
          const text = await res.text();
          const nonce = res.headers.get('dpop-nonce');
          if (nonce) w.me.nonce = nonce;
          assert.ok(res.status < 500, `${route.method} ${path} (${type ?? 'no type'}): ${res.status} ${text.slice(0, 300)}`);
          if (path.startsWith('/v1') && res.status >= 400) {
            const problem = /^application\/problem\+json/.test(res.headers.get('content-type') ?? '');
            const signIn = (res.status === 401 || res.status === 403) && res.headers.get('www-authenticate') !== null;
            assert.ok(problem || signIn, `${route.method} ${path}: ${res.status} ${res.headers.get('content-type')} ${text.slice(0, 200)}`);
            if (problem) assert.equal(typeof (JSON.parse(text) as { code?: unknown }).code, 'string');
          }
          // Injected faults and resets are the control surface's job; they must not leak into the next run.
          if (route.url === '/_sandbox/faults') await fetch(`${w.url}/_sandbox/faults`, { method: 'DELETE', headers: { authorization: `Bearer ${w.sb.controlSecret}` } });
        },
      ),
      { numRuns: 300, seed: Number(process.env.FUZZ_SEED ?? 20261123) },
    );
    assert.ok(seen.size > routes.length / 2, `most routes were tried (${seen.size} of ${routes.length})`);
    assert.equal((await fetch(`${w.url}/_sandbox/clock`)).status, 200, 'still answering');
  });
});
