// Authorization code with PKCE S256 for web, desktop and single-page apps: exact redirect
// matching (loopback on any port), dpop_jkt, confidential websites with a client secret.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { call, dpopProof, makeKey, postForm, startAuthServer, tokenNonce, type AuthServer, type TestKey } from './helpers';

interface Authorized {
  location: URL;
}

describe('sandbox oauth: authorization code with PKCE', () => {
  let srv: AuthServer;
  let desktop: { id: string; clientId: string };
  let website: { id: string; clientId: string; clientSecret: string };
  const now = () => srv.clock.now();
  const tokenUrl = () => `${srv.url}/oauth/token`;

  before(async () => {
    srv = await startAuthServer();
    desktop = (await call('POST', `${srv.url}/_sandbox/apps`, {
      name: 'Desk app', verified: true, domain: 'desk.example', scopes: ['cards:read', 'cards:answer'],
      redirectUris: ['http://127.0.0.1/callback', 'example.desk:/cb'],
    })).json;
    website = (await call('POST', `${srv.url}/_sandbox/apps`, {
      name: 'Web app', verified: true, domain: 'web.example', confidential: true, scopes: ['cards:read'],
      redirectUris: ['https://app.web.example/oauth/callback'],
    })).json;
    assert.ok(desktop.clientId && website.clientSecret);
  });
  after(() => srv.close());

  function pkce() {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
  }

  function authorizeUrl(q: Record<string, string | undefined>): string {
    const u = new URL(`${srv.url}/oauth/authorize`);
    for (const [k, v] of Object.entries(q)) if (v !== undefined) u.searchParams.set(k, v);
    return u.toString();
  }

  async function authorize(q: Record<string, string | undefined>, decision: { action?: string; scopes?: string[] } = {}): Promise<Authorized> {
    const page = await fetch(authorizeUrl(q), { redirect: 'manual' });
    const html = await page.text();
    assert.equal(page.status, 200, html);
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
    assert.ok(requestId);
    const scopes = decision.scopes ?? [...html.matchAll(/type="checkbox" name="scope" value="([^"]+)"/g)].map((m) => m[1]!);
    const res = await postForm(`${srv.url}/oauth/authorize`, { request_id: requestId, action: decision.action ?? 'allow', scope: scopes });
    assert.equal(res.status, 303, res.text);
    return { location: new URL(res.headers.get('location')!) };
  }

  function desktopQuery(key: TestKey, p: { challenge: string }, extra: Record<string, string | undefined> = {}) {
    return {
      response_type: 'code', client_id: desktop.clientId, redirect_uri: 'http://127.0.0.1:53682/callback', scope: 'cards:read cards:answer',
      state: 'st-1', code_challenge: p.challenge, code_challenge_method: 'S256', resource: `${srv.url}/v1`, dpop_jkt: key.jkt, ...extra,
    };
  }

  async function exchange(key: TestKey | undefined, fields: Record<string, string>, opts: { nonce?: boolean } = {}) {
    const headers: Record<string, string> = {};
    if (key) {
      const nonce = opts.nonce === false ? undefined : await tokenNonce(srv.url, key, now);
      headers.DPoP = await dpopProof(key, { htm: 'POST', htu: tokenUrl(), now, ...(nonce ? { nonce } : {}) });
    }
    return postForm(tokenUrl(), { grant_type: 'authorization_code', resource: `${srv.url}/v1`, ...fields }, headers);
  }

  it('a desktop app on a loopback port gets code, state and iss, then DPoP tokens with cards:read:all and reach all', async () => {
    const key = makeKey();
    const p = pkce();
    const { location } = await authorize(desktopQuery(key, p));
    assert.equal(location.origin + location.pathname, 'http://127.0.0.1:53682/callback');
    assert.equal(location.searchParams.get('state'), 'st-1');
    assert.equal(location.searchParams.get('iss'), srv.url);
    const code = location.searchParams.get('code')!;
    const res = await exchange(key, { code, redirect_uri: 'http://127.0.0.1:53682/callback', client_id: desktop.clientId, code_verifier: p.verifier });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.token_type, 'DPoP');
    assert.deepEqual(res.json.scope.split(' ').sort(), ['cards:answer', 'cards:read', 'cards:read:all']);
    const g = srv.auth.grants().find((x) => x.clientId === desktop.clientId)!;
    assert.equal(g.reach, 'all');
    assert.equal(g.machine, undefined);
    assert.equal(g.jkt, key.jkt);
  });

  it('the token endpoint asks a desktop app for a nonce first, and for a proof at all', async () => {
    const key = makeKey();
    const p = pkce();
    const code = (await authorize(desktopQuery(key, p))).location.searchParams.get('code')!;
    const fields = { code, redirect_uri: 'http://127.0.0.1:53682/callback', client_id: desktop.clientId, code_verifier: p.verifier };
    const noNonce = await exchange(key, fields, { nonce: false });
    assert.equal(noNonce.json.error, 'use_dpop_nonce');
    const noProof = await exchange(undefined, fields);
    assert.equal(noProof.json.error, 'invalid_dpop_proof');
    assert.equal((await exchange(key, fields)).status, 200);
  });

  it('refuses a proof by a key other than dpop_jkt', async () => {
    const key = makeKey();
    const p = pkce();
    const code = (await authorize(desktopQuery(key, p))).location.searchParams.get('code')!;
    const res = await exchange(makeKey(), { code, redirect_uri: 'http://127.0.0.1:53682/callback', client_id: desktop.clientId, code_verifier: p.verifier });
    assert.equal(res.json.error, 'invalid_dpop_proof');
  });

  it('refuses a wrong code_verifier, a different redirect_uri, and a code used twice (revoking its sign-in)', async () => {
    const key = makeKey();
    const p = pkce();
    const code = (await authorize(desktopQuery(key, p))).location.searchParams.get('code')!;
    const base = { code, redirect_uri: 'http://127.0.0.1:53682/callback', client_id: desktop.clientId, code_verifier: p.verifier };
    assert.equal((await exchange(key, { ...base, code_verifier: pkce().verifier })).json.error, 'invalid_grant');
    assert.equal((await exchange(key, { ...base, code_verifier: 'short' })).json.error, 'invalid_grant');
    assert.equal((await exchange(key, { ...base, redirect_uri: 'http://127.0.0.1:1/callback' })).json.error, 'invalid_grant');
    const { code_verifier: _v, ...noVerifier } = base;
    assert.equal((await exchange(key, noVerifier)).json.error, 'invalid_request');
    const ok = await exchange(key, base);
    assert.equal(ok.status, 200);
    const twice = await exchange(key, base);
    assert.equal(twice.json.error, 'invalid_grant');
    assert.ok(!srv.auth.grants().some((g) => g.jkt === key.jkt), 'the sign-in made with a replayed code is revoked');
  });

  it('a code lasts 60 seconds', async () => {
    const key = makeKey();
    const p = pkce();
    const code = (await authorize(desktopQuery(key, p))).location.searchParams.get('code')!;
    srv.clock.advance(61_000);
    const res = await exchange(key, { code, redirect_uri: 'http://127.0.0.1:53682/callback', client_id: desktop.clientId, code_verifier: p.verifier });
    assert.equal(res.json.error, 'invalid_grant');
    assert.match(res.json.error_description, /expired/);
  });

  it('never redirects to an address not registered: the error is shown on the page', async () => {
    const key = makeKey();
    const p = pkce();
    for (const redirect of ['http://127.0.0.1:8080/other', 'http://localhost:8080/callback', 'https://evil.example/cb', undefined]) {
      const res = await fetch(authorizeUrl(desktopQuery(key, p, { redirect_uri: redirect })), { redirect: 'manual' });
      assert.equal(res.status, 400, String(redirect));
      assert.equal(res.headers.get('location'), null);
      assert.match(await res.text(), /not registered/);
    }
    const unknown = await fetch(authorizeUrl(desktopQuery(key, p, { client_id: 'ghost' })), { redirect: 'manual' });
    assert.equal(unknown.status, 400);
  });

  it('redirects back with errors once the address is good: plain PKCE, no challenge, bad scope, bad resource, response type', async () => {
    const key = makeKey();
    const p = pkce();
    const cases: [Record<string, string | undefined>, string][] = [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ scope: 'cards:read presence:desk' }, 'invalid_scope'],
      [{ resource: 'https://other.example/v1' }, 'invalid_target'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ dpop_jkt: 'nope' }, 'invalid_request'],
    ];
    for (const [extra, error] of cases) {
      const res = await fetch(authorizeUrl(desktopQuery(key, p, extra)), { redirect: 'manual' });
      assert.equal(res.status, 303, JSON.stringify(extra));
      const loc = new URL(res.headers.get('location')!);
      assert.equal(loc.searchParams.get('error'), error, JSON.stringify(extra));
      assert.equal(loc.searchParams.get('state'), 'st-1');
      assert.equal(loc.searchParams.get('iss'), srv.url);
    }
  });

  it('a repeated parameter is redirected back as invalid_request; a removed app shows an error page', async () => {
    const key = makeKey();
    const p = pkce();
    const url = new URL(authorizeUrl(desktopQuery(key, p)));
    url.searchParams.append('scope', 'cards:read');
    const res = await fetch(url, { redirect: 'manual' });
    assert.equal(res.status, 303);
    assert.equal(new URL(res.headers.get('location')!).searchParams.get('error'), 'invalid_request');
    const gone = (await call('POST', `${srv.url}/_sandbox/apps`, { name: 'Gone', verified: true, scopes: ['cards:read'], redirectUris: ['http://127.0.0.1/cb'] })).json;
    await call('DELETE', `${srv.url}/_sandbox/apps/${gone.id}`);
    const page = await fetch(authorizeUrl(desktopQuery(key, p, { client_id: gone.clientId, redirect_uri: 'http://127.0.0.1:5000/cb' })), { redirect: 'manual' });
    assert.equal(page.status, 403);
    assert.equal(page.headers.get('location'), null);
  });

  it('a confidential app\'s refresh needs its secret', async () => {
    const p = pkce();
    const q = { response_type: 'code', client_id: website.clientId, redirect_uri: 'https://app.web.example/oauth/callback', scope: 'cards:read', code_challenge: p.challenge, code_challenge_method: 'S256', resource: `${srv.url}/v1` };
    const code = (await authorize(q)).location.searchParams.get('code')!;
    const tokens = await exchange(undefined, { code, redirect_uri: q.redirect_uri, client_id: website.clientId, code_verifier: p.verifier, client_secret: website.clientSecret });
    assert.equal(tokens.status, 200, tokens.text);
    const noSecret = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: tokens.json.refresh_token, client_id: website.clientId });
    assert.equal(noSecret.status, 401);
    assert.equal(noSecret.json.error, 'invalid_client');
  });

  it('Deny redirects back with access_denied', async () => {
    const p = pkce();
    const { location } = await authorize(desktopQuery(makeKey(), p), { action: 'deny' });
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('code'), null);
  });

  it('the person may untick scopes, but a desktop app always holds cards:read:all', async () => {
    const key = makeKey();
    const p = pkce();
    const code = (await authorize(desktopQuery(key, p), { scopes: ['cards:read'] })).location.searchParams.get('code')!;
    const res = await exchange(key, { code, redirect_uri: 'http://127.0.0.1:53682/callback', client_id: desktop.clientId, code_verifier: p.verifier });
    assert.deepEqual(res.json.scope.split(' ').sort(), ['cards:read', 'cards:read:all']);
  });

  it('a custom-scheme redirect is matched exactly', async () => {
    const key = makeKey();
    const p = pkce();
    const { location } = await authorize(desktopQuery(key, p, { redirect_uri: 'example.desk:/cb' }));
    assert.equal(location.protocol, 'example.desk:');
    assert.ok(location.searchParams.get('code'));
  });

  it('a website with a server exchanges its code with its secret and gets bearer tokens', async () => {
    const p = pkce();
    const q = { response_type: 'code', client_id: website.clientId, redirect_uri: 'https://app.web.example/oauth/callback', scope: 'cards:read', state: 'w', code_challenge: p.challenge, code_challenge_method: 'S256', resource: `${srv.url}/v1` };
    const code = (await authorize(q)).location.searchParams.get('code')!;
    const fields = { code, redirect_uri: q.redirect_uri, client_id: website.clientId, code_verifier: p.verifier };
    const noSecret = await exchange(undefined, fields);
    assert.equal(noSecret.status, 401);
    assert.equal(noSecret.json.error, 'invalid_client');
    const wrong = await exchange(undefined, { ...fields, client_secret: 'wrong' });
    assert.equal(wrong.json.error, 'invalid_client');
    const res = await exchange(undefined, { ...fields, client_secret: website.clientSecret });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.token_type, 'Bearer');
    const me = await call('GET', `${srv.url}/v1/me`, undefined, { authorization: `Bearer ${res.json.access_token}` });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.json.grant.dpop, false);
    assert.equal(me.json.grant.reach, 'all');
    assert.equal(me.json.grant.machine, undefined);
    // A bearer token sent as DPoP is refused.
    const asDpop = await call('GET', `${srv.url}/v1/me`, undefined, { authorization: `DPoP ${res.json.access_token}` });
    assert.equal(asDpop.json.error, 'invalid_token');
    // Its refresh needs the secret too, and rotates.
    const refresh = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: res.json.refresh_token, client_id: website.clientId, client_secret: website.clientSecret });
    assert.equal(refresh.status, 200, refresh.text);
    assert.equal(refresh.json.token_type, 'Bearer');
  });

  it('a website\'s new sign-in replaces the person\'s earlier one; a rotated secret stops at once', async () => {
    const signInWeb = async (secret: string, basic = false) => {
      const p = pkce();
      const q = { response_type: 'code', client_id: website.clientId, redirect_uri: 'https://app.web.example/oauth/callback', scope: 'cards:read', code_challenge: p.challenge, code_challenge_method: 'S256', resource: `${srv.url}/v1` };
      const code = (await authorize(q)).location.searchParams.get('code')!;
      const fields = { code, redirect_uri: q.redirect_uri, code_verifier: p.verifier };
      return basic
        ? postForm(tokenUrl(), { grant_type: 'authorization_code', ...fields }, { authorization: `Basic ${Buffer.from(`${website.clientId}:${secret}`).toString('base64')}` })
        : exchange(undefined, { ...fields, client_id: website.clientId, client_secret: secret });
    };
    const first = await signInWeb(website.clientSecret);
    const second = await signInWeb(website.clientSecret, true);
    assert.equal(second.status, 200, second.text);
    assert.equal((await call('GET', `${srv.url}/v1/me`, undefined, { authorization: `Bearer ${first.json.access_token}` })).status, 401);
    assert.equal((await call('GET', `${srv.url}/v1/me`, undefined, { authorization: `Bearer ${second.json.access_token}` })).status, 200);
    const rotated = await call('POST', `${srv.url}/_sandbox/apps/${website.id}/secret`);
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.json.clientSecret, website.clientSecret);
    assert.equal((await signInWeb(website.clientSecret)).json.error, 'invalid_client');
    assert.equal((await signInWeb(rotated.json.clientSecret)).status, 200);
    website.clientSecret = rotated.json.clientSecret;
  });

  it('an unverified app of another owner is refused (access_denied), its tester is not', async () => {
    const reg = (await call('POST', `${srv.url}/_sandbox/apps`, { name: 'Side project', verified: false, owner: 'usr_someone', scopes: ['cards:read'], redirectUris: ['http://localhost/cb'] })).json;
    const p = pkce();
    const q = { response_type: 'code', client_id: reg.clientId, redirect_uri: 'http://localhost:4000/cb', scope: 'cards:read', state: 'u', code_challenge: p.challenge, code_challenge_method: 'S256', resource: `${srv.url}/v1` };
    const refused = await fetch(authorizeUrl(q), { redirect: 'manual' });
    assert.equal(refused.status, 303);
    assert.equal(new URL(refused.headers.get('location')!).searchParams.get('error'), 'access_denied');
    assert.equal((await call('PUT', `${srv.url}/_sandbox/apps/${reg.id}/testers`, { testers: ['usr_test-person'] })).status, 200);
    const allowed = await authorize(q);
    assert.ok(allowed.location.searchParams.get('code'));
  });

  it('a consent request is answered once', async () => {
    const page = await (await fetch(authorizeUrl(desktopQuery(makeKey(), pkce())))).text();
    const requestId = /name="request_id" value="([^"]+)"/.exec(page)![1]!;
    assert.equal((await postForm(`${srv.url}/oauth/authorize`, { request_id: requestId, action: 'allow', scope: 'cards:read' })).status, 303);
    assert.equal((await postForm(`${srv.url}/oauth/authorize`, { request_id: requestId, action: 'allow', scope: 'cards:read' })).status, 400);
  });
});
