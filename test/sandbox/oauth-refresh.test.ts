// Refresh (DESIGN): form grant_type=refresh_token, refresh_token, client_id, a DPoP proof by the
// same key with a nonce; rotation on every use; a replayed refresh token revokes the sign-in.
import assert from 'node:assert/strict';
import { dpopProof, makeKey, postForm, signIn, startAuthServer, type AuthServer } from './helpers';

describe('sandbox oauth: refresh rotation and reuse detection', () => {
  let srv: AuthServer;
  const now = () => srv.clock.now();
  const tokenUrl = () => `${srv.url}/oauth/token`;
  before(async () => {
    srv = await startAuthServer();
  });
  after(() => srv.close());

  it('rotates both tokens; the new access token works, grant and scopes stay', async () => {
    const s = await signIn(srv.url, { now, scopes: ['cards:read', 'cards:answer'] });
    const before = (await s.request('GET', '/v1/me')).json.grant.id;
    const oldRefresh = s.refreshToken;
    const oldAccess = s.accessToken;
    const res = await s.refresh();
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.token_type, 'DPoP');
    assert.equal(res.json.expires_in, 900);
    assert.equal(res.json.scope, 'cards:read cards:answer');
    assert.notEqual(s.refreshToken, oldRefresh);
    assert.notEqual(s.accessToken, oldAccess);
    assert.equal((await s.request('GET', '/v1/me')).json.grant.id, before);
  });

  it('a used refresh token coming back revokes the sign-in (both holders lose it)', async () => {
    const s = await signIn(srv.url, { now });
    const stolen = s.refreshToken;
    assert.equal((await s.refresh()).status, 200);
    const replay = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: stolen, client_id: s.clientId }, {
      DPoP: await dpopProof(s.key, { htm: 'POST', htu: tokenUrl(), nonce: s.nonce, now }),
    });
    assert.equal(replay.status, 400);
    assert.equal(replay.json.error, 'invalid_grant');
    assert.match(replay.json.error_description, /revoked/);
    const me = await s.request('GET', '/v1/me');
    assert.equal(me.status, 401);
    assert.equal(me.json.error, 'invalid_token');
    const next = await s.refresh();
    assert.equal(next.json.error, 'invalid_grant');
  });

  it('needs a proof by the key the sign-in is bound to, with a nonce', async () => {
    const s = await signIn(srv.url, { now });
    const other = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: s.refreshToken, client_id: s.clientId }, {
      DPoP: await dpopProof(makeKey(), { htm: 'POST', htu: tokenUrl(), nonce: s.nonce, now }),
    });
    assert.equal(other.json.error, 'invalid_dpop_proof');
    const noNonce = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: s.refreshToken, client_id: s.clientId }, {
      DPoP: await dpopProof(s.key, { htm: 'POST', htu: tokenUrl(), now }),
    });
    assert.equal(noNonce.status, 400);
    assert.equal(noNonce.json.error, 'use_dpop_nonce');
    assert.ok(noNonce.headers.get('dpop-nonce'));
    const noProof = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: s.refreshToken, client_id: s.clientId });
    assert.equal(noProof.json.error, 'invalid_dpop_proof');
    // None of those used the refresh token up.
    assert.equal((await s.refresh()).status, 200);
  });

  it('refuses a missing or unknown refresh token, and another client\'s', async () => {
    const s = await signIn(srv.url, { now });
    const proof = async () => dpopProof(s.key, { htm: 'POST', htu: tokenUrl(), nonce: s.nonce, now });
    const missing = await postForm(tokenUrl(), { grant_type: 'refresh_token', client_id: s.clientId }, { DPoP: await proof() });
    assert.equal(missing.json.error, 'invalid_request');
    const unknown = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: 'nope', client_id: s.clientId }, { DPoP: await proof() });
    assert.equal(unknown.json.error, 'invalid_grant');
    const app = await fetch(`${srv.url}/_sandbox/apps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'X', verified: true, scopes: ['cards:read'] }) });
    const { clientId } = (await app.json()) as { clientId: string };
    const foreign = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: s.refreshToken, client_id: clientId }, { DPoP: await proof() });
    assert.equal(foreign.json.error, 'invalid_grant');
  });

  it('a bound sign-in lives on while used; unused for 30 days it ends', async () => {
    const s = await signIn(srv.url, { now });
    for (let i = 0; i < 3; i++) {
      srv.clock.advance(20 * 24 * 3600_000);
      const r = await s.refresh();
      assert.equal(r.status, 200, `refresh ${i}: ${r.text}`);
    }
    srv.clock.advance(30 * 24 * 3600_000 + 1000);
    const late = await s.refresh();
    assert.equal(late.json.error, 'invalid_grant');
    assert.match(late.json.error_description, /ended/);
  });
});
