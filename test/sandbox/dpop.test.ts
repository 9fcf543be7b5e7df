// Every DPoP check of RFC 9449 and DESIGN on a /v1 request, through HTTP; the token endpoint's and
// /v1's nonces split apart (RFC 9449 section 9).
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { NONCE_GRACE_MS, NONCE_ROTATE_MS } from '../../src/sandbox/auth/nonces';
import { ath, call, dpopProof, makeKey, signIn, signRaw, startAuthServer, type AuthServer, type SignedIn } from './helpers';
import { makeWorld, type World } from '../kit';

describe('sandbox dpop: proof checks on /v1', () => {
  let srv: AuthServer;
  let s: SignedIn;
  const now = () => srv.clock.now();
  const htu = () => `${srv.url}/v1/probe`;

  before(async () => {
    srv = await startAuthServer();
    s = await signIn(srv.url, { now });
  });
  after(() => srv.close());

  /** GET /v1/probe with this proof and token. */
  async function probe(proof: string | undefined, token = s.accessToken, scheme = 'DPoP') {
    return call('GET', `${srv.url}/v1/probe`, undefined, { authorization: `${scheme} ${token}`, ...(proof !== undefined ? { dpop: proof } : {}) });
  }

  /** A proof with every claim right, then `patch` applied to header and claims, signed raw. */
  function rawProof(patch: { header?: Record<string, unknown>; claims?: Record<string, unknown>; drop?: string[] } = {}, key = s.key) {
    const header: Record<string, unknown> = { typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk, ...patch.header };
    const claims: Record<string, unknown> = {
      jti: randomUUID(), htm: 'GET', htu: htu(), iat: Math.floor(now() / 1000), ath: ath(s.accessToken), nonce: s.nonce, ...patch.claims,
    };
    for (const d of patch.drop ?? []) delete claims[d];
    return signRaw(header, claims, key.privateKey);
  }

  function assertRefused(res: { status: number; json: { error: string; error_description: string }; headers: Headers }, error: string, about?: RegExp) {
    assert.equal(res.status, error === 'insufficient_scope' ? 403 : 401, JSON.stringify(res.json));
    assert.equal(res.json.error, error);
    if (about) assert.match(res.json.error_description, about);
    assert.match(res.headers.get('www-authenticate') ?? '', new RegExp(`error="${error}"`));
  }

  it('accepts a correct proof (jose-made), and answers with a DPoP-Nonce', async () => {
    const res = await s.request('GET', '/v1/probe');
    assert.equal(res.status, 200, res.text);
    assert.ok(res.headers.get('dpop-nonce'));
  });

  it('accepts a raw proof with every claim right (the baseline for the refusals below)', async () => {
    assert.equal((await probe(rawProof())).status, 200);
  });

  it('refuses a bound token without a proof', async () => {
    assertRefused(await probe(undefined), 'invalid_dpop_proof', /missing/);
  });

  it('refuses two proofs in one request', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(`${srv.url}/v1/probe`);
      const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: 'GET', headers: [
        'host', u.host, 'authorization', `DPoP ${s.accessToken}`, 'dpop', rawProof(), 'dpop', rawProof(),
      ] as unknown as Record<string, string> }, (r) => {
        let body = '';
        r.on('data', (c) => (body += c));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(res.status, 401, res.body);
    assert.equal(JSON.parse(res.body).error, 'invalid_dpop_proof');
  });

  it('refuses a proof that is not a JWS', async () => {
    assertRefused(await probe('not-a-jwt'), 'invalid_dpop_proof', /compact JWS/);
  });

  it('refuses typ other than dpop+jwt', async () => {
    assertRefused(await probe(rawProof({ header: { typ: 'JWT' } })), 'invalid_dpop_proof', /typ/);
  });

  it('refuses any alg but ES256 (ES384, none, HS256)', async () => {
    for (const alg of ['ES384', 'none', 'HS256', 'RS256']) {
      assertRefused(await probe(rawProof({ header: { alg } })), 'invalid_dpop_proof', /alg/);
    }
  });

  it('refuses a proof without jwk, with a private jwk, or with another curve', async () => {
    assertRefused(await probe(rawProof({ header: { jwk: undefined } })), 'invalid_dpop_proof', /jwk/);
    assertRefused(await probe(rawProof({ header: { jwk: { ...s.key.publicJwk, d: 'AAAA' } } })), 'invalid_dpop_proof', /private/);
    assertRefused(await probe(rawProof({ header: { jwk: { ...s.key.publicJwk, crv: 'P-384' } } })), 'invalid_dpop_proof', /P-256/);
    assertRefused(await probe(rawProof({ header: { jwk: { kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'B'.repeat(43) } } })), 'invalid_dpop_proof', /point|signature/);
  });

  it('refuses a proof whose signature is not by the jwk it carries', async () => {
    const other = makeKey();
    const forged = signRaw({ typ: 'dpop+jwt', alg: 'ES256', jwk: s.key.publicJwk }, { jti: randomUUID(), htm: 'GET', htu: htu(), iat: Math.floor(now() / 1000), ath: ath(s.accessToken) }, other.privateKey);
    assertRefused(await probe(forged), 'invalid_dpop_proof', /signature/);
  });

  it('refuses a proof by a key other than the one the token is bound to', async () => {
    const other = makeKey();
    assertRefused(await probe(rawProof({}, other)), 'invalid_dpop_proof', /bound/);
  });

  it('refuses a missing jti and a jti seen before', async () => {
    assertRefused(await probe(rawProof({ drop: ['jti'] })), 'invalid_dpop_proof', /jti/);
    const jti = randomUUID();
    assert.equal((await probe(rawProof({ claims: { jti } }))).status, 200);
    assertRefused(await probe(rawProof({ claims: { jti } })), 'invalid_dpop_proof', /already used/);
  });

  it('refuses a wrong htm', async () => {
    assertRefused(await probe(rawProof({ claims: { htm: 'POST' } })), 'invalid_dpop_proof', /htm/);
  });

  it('refuses a wrong htu, and compares it without query or fragment', async () => {
    assertRefused(await probe(rawProof({ claims: { htu: `${srv.url}/v1/cards` } })), 'invalid_dpop_proof', /htu/);
    assertRefused(await probe(rawProof({ claims: { htu: htu().replace('127.0.0.1', 'localhost') } })), 'invalid_dpop_proof', /htu/);
    assert.equal((await probe(rawProof({ claims: { htu: `${htu()}?x=1#f` } }))).status, 200);
    const withQuery = await call('GET', `${srv.url}/v1/probe?scope=any`, undefined, { authorization: `DPoP ${s.accessToken}`, dpop: rawProof() });
    assert.equal(withQuery.status, 200, withQuery.text);
  });

  it('keeps iat within 60 s of the server clock either way', async () => {
    const t = Math.floor(now() / 1000);
    assert.equal((await probe(rawProof({ claims: { iat: t - 59 } }))).status, 200);
    assert.equal((await probe(rawProof({ claims: { iat: t + 59 } }))).status, 200);
    assertRefused(await probe(rawProof({ claims: { iat: t - 61 } })), 'invalid_dpop_proof', /iat/);
    assertRefused(await probe(rawProof({ claims: { iat: t + 61 } })), 'invalid_dpop_proof', /iat/);
    assertRefused(await probe(rawProof({ claims: { iat: 'now' } })), 'invalid_dpop_proof', /iat/);
  });

  it('needs ath, the hash of this access token', async () => {
    assertRefused(await probe(rawProof({ drop: ['ath'] })), 'invalid_dpop_proof', /ath/);
    assertRefused(await probe(rawProof({ claims: { ath: ath('another token') } })), 'invalid_dpop_proof', /ath/);
  });

  it('answers use_dpop_nonce (401, WWW-Authenticate, DPoP-Nonce) to an unknown nonce', async () => {
    const res = await probe(rawProof({ claims: { nonce: 'made-up' } }));
    assertRefused(res, 'use_dpop_nonce');
    assert.match(res.headers.get('www-authenticate') ?? '', /^DPoP error="use_dpop_nonce"/);
    assert.ok(res.headers.get('dpop-nonce'));
  });

  it('answers use_dpop_nonce to a proof without a nonce on /v1 too (DESIGN)', async () => {
    const res = await probe(rawProof({ drop: ['nonce'] }));
    assertRefused(res, 'use_dpop_nonce');
    assert.ok(res.headers.get('dpop-nonce'));
  });

  it('keeps a nonce good for 5 minutes after a newer one is issued, then refuses it', async () => {
    const old = (await s.request('GET', '/v1/probe')).headers.get('dpop-nonce')!;
    srv.clock.advance(NONCE_ROTATE_MS); // the next answer carries a new nonce
    const fresh = await probe(rawProof({ claims: { nonce: old } }));
    assert.equal(fresh.status, 200, fresh.text);
    const newer = fresh.headers.get('dpop-nonce')!;
    assert.notEqual(newer, old);
    srv.clock.advance(NONCE_GRACE_MS - 1000);
    assert.equal((await probe(rawProof({ claims: { nonce: old } }))).status, 200);
    srv.clock.advance(2000);
    assertRefused(await probe(rawProof({ claims: { nonce: old } })), 'use_dpop_nonce');
    // The client's retry with the nonce it was just given passes.
    const retry = await s.request('GET', '/v1/probe');
    assert.equal(retry.status, 200);
  });

  it('refuses a bound token sent as Bearer', async () => {
    assertRefused(await probe(rawProof(), s.accessToken, 'Bearer'), 'invalid_token', /bound/);
  });

  it('refuses no Authorization, an unknown token, another scheme', async () => {
    const none = await call('GET', `${srv.url}/v1/probe`);
    assertRefused(none, 'invalid_token');
    assertRefused(await probe(rawProof(), 'nope'), 'invalid_token', /not known/);
    assertRefused(await probe(rawProof(), s.accessToken, 'Basic'), 'invalid_token');
  });

  it('refuses an access token after its 15 minutes', async () => {
    const t = await signIn(srv.url, { now });
    srv.clock.advance(15 * 60_000);
    const res = await t.request('GET', '/v1/probe');
    assert.equal(res.status, 401);
    assert.equal(res.json.error, 'invalid_token');
    assert.match(res.json.error_description, /expired/);
    assert.equal((await t.refresh()).status, 200);
    assert.equal((await t.request('GET', '/v1/probe')).status, 200);
  });

  it('answers 403 insufficient_scope naming the scope', async () => {
    const t = await signIn(srv.url, { now, scopes: ['cards:read'] });
    const res = await t.request('GET', '/v1/probe?scope=cards:answer');
    assertRefused(res, 'insufficient_scope', /cards:answer/);
    assert.match(res.headers.get('www-authenticate') ?? '', /scope="cards:answer"/);
    assert.equal((await t.request('GET', '/v1/probe?scope=cards:read')).status, 200);
  });

  it('lets cards:read:all stand for cards:read', async () => {
    const t = await signIn(srv.url, { now, scopes: ['cards:read:all'] });
    assert.equal((await t.request('GET', '/v1/probe?scope=cards:read')).status, 200);
  });

  it('checks a POST proof with htm POST', async () => {
    const t = await signIn(srv.url, { now });
    const res = await t.request('POST', '/v1/probe', { body: {} });
    assert.equal(res.status, 200, res.text);
    const proof = await dpopProof(t.key, { htm: 'GET', htu: htu(), accessToken: t.accessToken, now });
    const wrong = await call('POST', `${srv.url}/v1/probe`, {}, { authorization: `DPoP ${t.accessToken}`, dpop: proof });
    assert.equal(wrong.json.error, 'invalid_dpop_proof');
  });
});

describe('sandbox dpop: split nonces (POST /_sandbox/dpop)', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('split: /oauth/token and /v1 hand out and accept only their own nonces; shared again on request and on reset', async () => {
    assert.deepEqual((await w.ctl('GET', '/_sandbox/dpop')).json, { id: 'dpop', nonces: 'shared' });
    assert.equal((await w.ctl('POST', '/_sandbox/dpop', { nonces: 'both' })).status, 400);
    assert.deepEqual((await w.ctl('POST', '/_sandbox/dpop', { nonces: 'split' })).json, { id: 'dpop', nonces: 'split' });
    const read = await w.me.request('GET', '/v1/cards');
    assert.equal(read.status, 200);
    const resourceNonce = read.headers.get('dpop-nonce')!;
    // The refresh first offers the /v1 nonce: refused, then made again with the token endpoint's.
    const refreshed = await w.me.refresh();
    assert.equal(refreshed.status, 200, refreshed.text);
    const tokenNonce = refreshed.headers.get('dpop-nonce')!;
    assert.notEqual(tokenNonce, resourceNonce);
    const atV1 = await call('GET', `${w.url}/v1/cards`, undefined, {
      authorization: `DPoP ${w.me.accessToken}`,
      dpop: await dpopProof(w.me.key, { htm: 'GET', htu: `${w.url}/v1/cards`, nonce: tokenNonce, accessToken: w.me.accessToken }),
    });
    assert.equal(atV1.status, 401);
    assert.match(atV1.headers.get('www-authenticate') ?? '', /use_dpop_nonce/);
    assert.equal(atV1.headers.get('dpop-nonce'), resourceNonce);
    await w.ctl('POST', '/_sandbox/dpop', { nonces: 'shared' });
    assert.equal((await w.me.refresh()).headers.get('dpop-nonce'), resourceNonce, 'shared: the /v1 book serves both');
    await w.ctl('POST', '/_sandbox/dpop', { nonces: 'split' });
    await w.ctl('POST', '/_sandbox/reset');
    assert.deepEqual((await w.ctl('GET', '/_sandbox/dpop')).json, { id: 'dpop', nonces: 'shared' });
  });
});
