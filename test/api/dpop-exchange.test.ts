// The one DPoP-bound exchange (src/api/dpop-exchange.ts) that /v1 and the token endpoints share:
// a new nonce is asked for once and only once, a refusal for time corrects the clock once (and is
// undone when that was not it), and a gateway's answer is never a sign-in refusal.
import assert from 'node:assert/strict';
import { NetworkError, OAuthRefusalError } from '../../src/api/errors';
import { isJsonType, NonceStore, oauthRefusalOf, sendDpopBound } from '../../src/api/dpop-exchange';
import type { DpopEndpoint } from '../../src/api/dpop-exchange';
import type { HttpResponse } from '../../src/api/http';
import { ServerTime } from '../../src/api/server-time';
import { OAuthEndpoints } from '../../src/auth/oauth';
import type { DpopKey } from '../../src/auth/dpop';
import { fixedClock, realClock } from '../kit/clocks';

const URL_V1 = 'https://svc.test/v1/cards/req_1';
const URL_TOKEN = 'https://svc.test/oauth/token';

const nonceRefusal = (endpoint: DpopEndpoint, nonce: string): HttpResponse => endpoint === 'resource'
  ? { status: 401, headers: { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': nonce, 'content-type': 'application/json' }, text: '{"error":"use_dpop_nonce"}' }
  : { status: 400, headers: { 'dpop-nonce': nonce, 'content-type': 'application/json' }, text: '{"error":"use_dpop_nonce"}' };
const timeRefusal = (endpoint: DpopEndpoint, date: string): HttpResponse => ({
  status: endpoint === 'resource' ? 401 : 400,
  headers: { ...(endpoint === 'resource' ? { 'www-authenticate': 'DPoP error="invalid_dpop_proof"' } : {}), date, 'content-type': 'application/json' },
  text: '{"error":"invalid_dpop_proof","error_description":"iat too far from the server clock"}',
});
const ok: HttpResponse = { status: 200, headers: { 'content-type': 'application/json', 'dpop-nonce': 'n-ok' }, text: '{}' };

/** Runs sendDpopBound over scripted answers; records the nonce and time of each proof. */
async function run(endpoint: DpopEndpoint, script: HttpResponse[], serverTime?: ServerTime) {
  const proofs: { nonce: string | undefined; at: number | undefined }[] = [];
  const url = endpoint === 'resource' ? URL_V1 : URL_TOKEN;
  const answer = await sendDpopBound({
    method: 'POST', url, endpoint, nonces: new NonceStore(), serverTime,
    proof: async (nonce) => {
      proofs.push({ nonce, at: serverTime?.now() });
      return 'proof';
    },
    send: async () => {
      const next = script.shift();
      assert.ok(next, 'no more answers scripted: sent too often');
      return next;
    },
  });
  return { answer, proofs, left: script.length };
}

for (const endpoint of ['resource', 'token'] as const) {
  describe(`api: one DPoP exchange (${endpoint})`, () => {
    it('use_dpop_nonce: repeated once with the new nonce', async () => {
      const { answer, proofs } = await run(endpoint, [nonceRefusal(endpoint, 'n-1'), ok]);
      assert.equal(answer.res.status, 200);
      assert.equal(answer.refusal, undefined);
      assert.deepEqual(proofs.map((p) => p.nonce), [undefined, 'n-1']);
    });

    it('use_dpop_nonce twice: the second is the answer (once and only once)', async () => {
      const { answer, proofs, left } = await run(endpoint, [nonceRefusal(endpoint, 'n-1'), nonceRefusal(endpoint, 'n-2'), ok]);
      assert.ok(answer.refusal instanceof OAuthRefusalError);
      assert.equal(answer.refusal.error, 'use_dpop_nonce');
      assert.equal(proofs.length, 2);
      assert.equal(left, 1, 'never a third send');
    });

    it('a refusal for time: the proof is made again once on the service clock', async () => {
      const st = new ServerTime(fixedClock('2026-05-01T12:10:00Z')); // ten minutes ahead of the service
      const { answer, proofs } = await run(endpoint, [timeRefusal(endpoint, 'Fri, 01 May 2026 12:00:00 GMT'), ok], st);
      assert.equal(answer.res.status, 200);
      assert.equal(proofs.length, 2);
      assert.ok(Math.abs(proofs[1]!.at! - Date.parse('2026-05-01T12:00:00Z')) < 2000, 'second proof on the service time');
      assert.ok(st.skewMs < -590_000);
    });

    it('a refusal for time twice: refused, and the correction undone (the clock was not it)', async () => {
      const st = new ServerTime(fixedClock('2026-05-01T12:10:00Z'));
      const { answer, proofs, left } = await run(endpoint, [
        timeRefusal(endpoint, 'Fri, 01 May 2026 12:00:00 GMT'), timeRefusal(endpoint, 'Fri, 01 May 2026 12:00:00 GMT'), ok,
      ], st);
      assert.equal(answer.refusal?.error, 'invalid_dpop_proof');
      assert.equal(proofs.length, 2);
      assert.equal(left, 1);
      assert.equal(st.skewMs, 0);
    });

    it('a refusal for time with our clock right: not repeated', async () => {
      const st = new ServerTime(fixedClock('2026-05-01T12:00:01Z'));
      const { answer, proofs } = await run(endpoint, [timeRefusal(endpoint, 'Fri, 01 May 2026 12:00:00 GMT'), ok], st);
      assert.equal(answer.refusal?.error, 'invalid_dpop_proof');
      assert.equal(proofs.length, 1);
    });

    it('a gateway 502, JSON with its own `error` or an HTML page: no refusal, no repeat', async () => {
      for (const res of [
        { status: 502, headers: { 'content-type': 'application/json', 'dpop-nonce': 'n-gw' }, text: '{"error":"use_dpop_nonce"}' },
        { status: 502, headers: { 'content-type': 'text/html' }, text: '<h1>502 Bad Gateway</h1>' },
      ] as HttpResponse[]) {
        const { answer, proofs } = await run(endpoint, [res, ok]);
        assert.equal(answer.refusal, undefined);
        assert.equal(answer.res.status, 502);
        assert.equal(proofs.length, 1);
      }
    });
  });
}

describe('api: what a sign-in refusal is', () => {
  it('at /v1 only the service challenge; at the token endpoint only a 400/401 OAuth JSON body', () => {
    const html = { 'content-type': 'text/html' };
    assert.equal(oauthRefusalOf({ status: 401, headers: { 'www-authenticate': 'Basic realm="proxy"', ...html }, text: '<h1>no</h1>' }, URL_V1, 'resource'), undefined);
    assert.equal(oauthRefusalOf({ status: 401, headers: { 'content-type': 'application/json' }, text: '{"error":"invalid_token"}' }, URL_V1, 'resource'), undefined);
    const scope = oauthRefusalOf({ status: 403, headers: { 'www-authenticate': 'DPoP error="insufficient_scope", scope="cards:later"' }, text: '' }, URL_V1, 'resource');
    assert.equal(scope?.error, 'insufficient_scope');
    assert.equal(scope?.scope, 'cards:later');
    assert.equal(oauthRefusalOf({ status: 400, headers: html, text: '{"error":"invalid_grant"}' }, URL_TOKEN, 'token'), undefined);
    assert.equal(oauthRefusalOf({ status: 502, headers: { 'content-type': 'application/json' }, text: '{"error":"invalid_grant"}' }, URL_TOKEN, 'token'), undefined);
    assert.equal(oauthRefusalOf({ status: 400, headers: { 'content-type': 'application/json; charset=utf-8' }, text: '{"error":"invalid_grant"}' }, URL_TOKEN, 'token')?.error, 'invalid_grant');
  });

  it('JSON types: application/json and +json with parameters; nothing else', () => {
    for (const t of ['application/json', 'application/json; charset=utf-8', 'application/problem+json', 'Application/JSON']) assert.ok(isJsonType(t), t);
    for (const t of ['text/html', 'text/json', 'application/jsonx', 'application/javascript', '', undefined]) assert.ok(!isJsonType(t), String(t));
  });

  it('the token endpoint behind a gateway: a 502 (JSON or HTML) is a NetworkError, never a refusal', async () => {
    const key = { proof: async () => 'proof' } as unknown as DpopKey;
    for (const res of [
      { status: 502, headers: { 'content-type': 'text/html' }, text: '<h1>502 Bad Gateway</h1>' },
      { status: 502, headers: { 'content-type': 'application/json' }, text: '{"error":"invalid_grant"}' },
      { status: 401, headers: { 'content-type': 'text/html' }, text: '<h1>401 from a proxy</h1>' },
    ]) {
      const endpoints = new OAuthEndpoints({
        baseUrl: 'https://svc.test', clientId: 'c', nonces: new NonceStore(), clock: realClock, userAgent: 't/1',
        transport: { send: async () => res, close: async () => undefined },
      });
      await assert.rejects(endpoints.refresh('rt', key), (e: unknown) => e instanceof NetworkError, `${res.status} ${res.headers['content-type']}`);
    }
  });
});
