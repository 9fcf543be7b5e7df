// POST /oauth/device with the computer attestation, the token poll answers of RFC 8628, and what
// a device sign-in becomes (GET /v1/me, replacement, scopes, testers, removed apps).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { ProblemError } from '../../src/sandbox/problems';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  attestation, call, dpopProof, keyFromPrivateJwk, makeKey, makeMachine, postForm, signIn, signRaw, startAuthServer, startDevice, tokenNonce,
  type AuthServer, type Machine, type TestKey,
} from './helpers';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('sandbox oauth: computers and the device endpoint', () => {
  let srv: AuthServer;
  let machine: Machine;
  const now = () => srv.clock.now();
  before(async () => {
    srv = await startAuthServer();
    machine = await makeMachine(srv.url, 'dev-box');
  });
  after(() => srv.close());

  function device(fields: Record<string, string>) {
    return postForm(`${srv.url}/oauth/device`, fields);
  }
  function good(key: TestKey, extra: Record<string, string> = {}) {
    return {
      client_id: 'assistant-cards-vscode',
      scope: 'cards:read cards:answer',
      resource: `${srv.url}/v1`,
      machine: machine.name,
      machine_attestation: attestation(machine, { aud: srv.url, jkt: key.jkt, now }),
      ...extra,
    };
  }
  async function refused(fields: Record<string, string>, error: string, about: RegExp, status = 400) {
    const res = await device(fields);
    assert.equal(res.status, status, res.text);
    assert.equal(res.json.error, error);
    assert.match(res.json.error_description, about);
  }

  it('sets up a computer: mch_ id, name, private P-256 JWK', async () => {
    assert.match(machine.id, /^mch_[A-Za-z0-9-]+$/);
    assert.equal(machine.privateJwk.crv, 'P-256');
    assert.ok(machine.privateJwk.d);
    assert.ok(srv.auth.machines.has(machine.id));
  });

  it('writes the identity file with mode 0600 when asked, making folders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-machine-'));
    const file = join(dir, 'nested', 'deeper', 'machine.json');
    const res = await call('POST', `${srv.url}/_sandbox/machines`, { name: 'file-box', writeTo: file });
    assert.equal(res.status, 201);
    const written = JSON.parse(await readFile(file, 'utf8'));
    assert.deepEqual(Object.keys(written).sort(), ['baseUrl', 'id', 'madeBy', 'name', 'privateJwk', 'sandbox']);
    // The process serving the address (#37): here the test's own, as the sandbox runs in it.
    assert.deepEqual(written.sandbox, { pid: process.pid, host: hostname() });
    assert.equal(written.id, res.json.id);
    assert.equal(written.baseUrl, srv.url);
    assert.deepEqual(written.privateJwk, res.json.privateJwk);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
  });

  it('refuses a computer without a name', async () => {
    const res = await call('POST', `${srv.url}/_sandbox/machines`, {});
    assert.equal(res.status, 400);
    assert.equal(res.json.code, 'invalid');
    assert.equal(res.json.errors[0].field, 'name');
  });

  it('answers device_code, user_code, verification URIs, 600 s, interval 3, client_id', async () => {
    const res = await device(good(makeKey()));
    assert.equal(res.status, 200, res.text);
    assert.match(res.json.user_code, /^[A-Z]{4}-[A-Z]{4}$/);
    assert.equal(res.json.verification_uri, `${srv.url}/device`);
    assert.equal(res.json.verification_uri_complete, `${srv.url}/device?user_code=${res.json.user_code}`);
    assert.equal(res.json.expires_in, 600);
    assert.equal(res.json.interval, 3);
    assert.equal(res.json.client_id, 'assistant-cards-vscode');
    assert.ok(res.json.device_code.length >= 32);
  });

  it('refuses missing client_id, unknown client, repeated fields', async () => {
    const key = makeKey();
    const { client_id: _c, ...noClient } = good(key);
    await refused(noClient, 'invalid_request', /client_id/);
    await refused(good(key, { client_id: 'nobody' }), 'invalid_client', /nobody/, 401);
    const res = await postForm(`${srv.url}/oauth/device`, { ...good(key), scope: ['cards:read', 'cards:answer'] });
    assert.equal(res.json.error, 'invalid_request');
    assert.match(res.json.error_description, /repeated/);
  });

  it('refuses unknown scopes and scopes beyond the app\'s ceiling', async () => {
    await refused(good(makeKey(), { scope: 'cards:read cards:everything' }), 'invalid_scope', /cards:everything/);
    const reg = await call('POST', `${srv.url}/_sandbox/apps`, { name: 'Reader', verified: true, scopes: ['cards:read'] });
    await refused(good(makeKey(), { client_id: reg.json.clientId, scope: 'cards:read cards:answer' }), 'invalid_scope', /cards:answer/);
  });

  it('needs resource {base_url}/v1 and the computer name', async () => {
    const key = makeKey();
    const { resource: _r, ...noResource } = good(key);
    await refused(noResource, 'invalid_request', /resource/);
    await refused(good(key, { resource: `${srv.url}/v2` }), 'invalid_target', /resource/);
    const { machine: _m, ...noMachine } = good(key);
    await refused(noMachine, 'invalid_request', /machine/);
  });

  it('refuses a missing attestation: the computer is not set up', async () => {
    const { machine_attestation: _a, ...none } = good(makeKey());
    await refused(none, 'invalid_request', /not set up/);
    await refused({ ...none, machine_attestation: 'garbage' }, 'invalid_request', /compact JWS/);
  });

  it('refuses an attestation of a computer the service does not know', async () => {
    const stranger: Machine = { ...machine, id: 'mch_unknown-one' };
    const key = makeKey();
    await refused(good(key, { machine_attestation: attestation(stranger, { aud: srv.url, jkt: key.jkt, now }) }), 'invalid_request', /not known/);
  });

  it('refuses an attestation signed by another key', async () => {
    const impostor = makeKey();
    const key = makeKey();
    const t = Math.floor(now() / 1000);
    const jws = signRaw({ alg: 'ES256', typ: 'machine-attestation+jwt', kid: machine.id }, { iss: machine.id, aud: srv.url, jkt: key.jkt, iat: t, exp: t + 60, jti: 'abcdefgh-1' }, impostor.privateKey);
    await refused(good(key, { machine_attestation: jws }), 'invalid_request', /signature/);
  });

  it('refuses wrong typ, alg, iss, aud, jkt, and lifetimes', async () => {
    const key = makeKey();
    const att = (o: Parameters<typeof attestation>[1]) => good(key, { machine_attestation: attestation(machine, o) });
    const t = Math.floor(now() / 1000);
    await refused(att({ aud: srv.url, jkt: key.jkt, now, header: { typ: 'JWT' } }), 'invalid_request', /typ/);
    await refused(att({ aud: srv.url, jkt: key.jkt, now, header: { alg: 'ES384' } }), 'invalid_request', /alg/);
    await refused(att({ aud: srv.url, jkt: key.jkt, now, claims: { iss: 'mch_other' } }), 'invalid_request', /iss/);
    await refused(att({ aud: 'https://elsewhere.example', jkt: key.jkt, now }), 'invalid_request', /aud/);
    await refused(att({ aud: srv.url, jkt: 'short', now }), 'invalid_request', /jkt/);
    await refused(att({ aud: srv.url, jkt: key.jkt, iat: t, exp: t + 301 }), 'invalid_request', /5 minutes/);
    await refused(att({ aud: srv.url, jkt: key.jkt, iat: t - 400, exp: t - 100 }), 'invalid_request', /expired/);
    await refused(att({ aud: srv.url, jkt: key.jkt, iat: t + 200, exp: t + 300 }), 'invalid_request', /future/);
  });

  it('refuses an attestation used twice', async () => {
    const key = makeKey();
    const fields = good(key);
    assert.equal((await device(fields)).status, 200);
    await refused(fields, 'invalid_request', /already used/);
  });
});

describe('sandbox oauth: device token polling (RFC 8628)', () => {
  let srv: AuthServer;
  let machine: Machine;
  const now = () => srv.clock.now();
  const tokenUrl = () => `${srv.url}/oauth/token`;
  before(async () => {
    srv = await startAuthServer();
    machine = await makeMachine(srv.url, 'poll-box');
  });
  after(() => srv.close());

  async function begin(key = makeKey(), scopes?: string[]) {
    const res = await startDevice(srv.url, { key, machine, now, ...(scopes ? { scopes } : {}) });
    assert.equal(res.status, 200, res.text);
    return { key, device: res.json as { device_code: string; user_code: string; interval: number } };
  }
  async function poll(key: TestKey, deviceCode: string, opts: { nonce?: string | null; clientId?: string } = {}) {
    const nonce = opts.nonce === null ? undefined : (opts.nonce ?? (await tokenNonce(srv.url, key, now)));
    return postForm(
      tokenUrl(),
      { grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: opts.clientId ?? 'assistant-cards-vscode' },
      { DPoP: await dpopProof(key, { htm: 'POST', htu: tokenUrl(), now, ...(nonce ? { nonce } : {}) }) },
    );
  }
  function oauthError(res: { status: number; json: { error: string } }, error: string) {
    assert.equal(res.status, 400, JSON.stringify(res.json));
    assert.equal(res.json.error, error);
  }

  it('asks for a nonce first: 400 use_dpop_nonce with DPoP-Nonce', async () => {
    const { key, device } = await begin();
    const res = await poll(key, device.device_code, { nonce: null });
    oauthError(res, 'use_dpop_nonce');
    assert.ok(res.headers.get('dpop-nonce'));
    const stale = await poll(key, device.device_code, { nonce: 'not-a-nonce' });
    oauthError(stale, 'use_dpop_nonce');
  });

  it('needs a DPoP proof at all', async () => {
    const { device } = await begin();
    const res = await postForm(tokenUrl(), { grant_type: DEVICE_GRANT, device_code: device.device_code, client_id: 'assistant-cards-vscode' });
    oauthError(res, 'invalid_dpop_proof');
  });

  it('needs the proof by the key the computer attested', async () => {
    const { device } = await begin();
    oauthError(await poll(makeKey(), device.device_code), 'invalid_dpop_proof');
  });

  it('answers authorization_pending, then slow_down (+5 s) when polled too fast', async () => {
    const { key, device } = await begin();
    oauthError(await poll(key, device.device_code), 'authorization_pending');
    const fast = await poll(key, device.device_code);
    oauthError(fast, 'slow_down');
    assert.match(fast.json.error_description, /8 s/);
    srv.clock.advance(3000); // the old interval is not enough any more
    oauthError(await poll(key, device.device_code), 'slow_down');
    srv.clock.advance(13_000);
    oauthError(await poll(key, device.device_code), 'authorization_pending');
  });

  it('answers access_denied once the person denied', async () => {
    const { key, device } = await begin();
    const deny = await call('POST', `${srv.url}/_sandbox/device/deny`, { user_code: device.user_code });
    assert.equal(deny.status, 200);
    assert.equal(deny.json.status, 'denied');
    oauthError(await poll(key, device.device_code), 'access_denied');
  });

  it('answers expired_token after 600 s', async () => {
    const { key, device } = await begin();
    srv.clock.advance(600_000);
    oauthError(await poll(key, device.device_code), 'expired_token');
    const late = await call('POST', `${srv.url}/_sandbox/device/approve`, { user_code: device.user_code });
    assert.equal(late.status, 404);
  });

  it('issues DPoP tokens of 15 minutes once allowed, then the code is used up', async () => {
    const { key, device } = await begin();
    assert.equal((await call('POST', `${srv.url}/_sandbox/device/approve`, { user_code: device.user_code.toLowerCase().replace('-', '') })).status, 200);
    const res = await poll(key, device.device_code);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.token_type, 'DPoP');
    assert.equal(res.json.expires_in, 900);
    assert.ok(res.json.refresh_token);
    assert.equal(res.json.scope, 'cards:read cards:read:all cards:answer cards:reply cards:later cards:delegate assistants:read presence:desk');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    srv.clock.advance(5000);
    oauthError(await poll(key, device.device_code), 'invalid_grant');
  });

  it('refuses an unknown device code, another client, an unknown grant type, a missing grant type', async () => {
    const { key, device } = await begin();
    oauthError(await poll(key, 'nope'), 'invalid_grant');
    const other = await call('POST', `${srv.url}/_sandbox/apps`, { name: 'Other', verified: true, scopes: ['cards:read'] });
    oauthError(await poll(key, device.device_code, { clientId: other.json.clientId }), 'invalid_grant');
    const weird = await postForm(tokenUrl(), { grant_type: 'password', client_id: 'assistant-cards-vscode' });
    oauthError(weird, 'unsupported_grant_type');
    oauthError(await postForm(tokenUrl(), { client_id: 'assistant-cards-vscode' }), 'invalid_request');
    const unknownClient = await postForm(tokenUrl(), { grant_type: DEVICE_GRANT, device_code: device.device_code, client_id: 'ghost' });
    assert.equal(unknownClient.status, 401);
    assert.equal(unknownClient.json.error, 'invalid_client');
  });

  it('refuses a wrong resource, a repeated field, and a secret from a public client', async () => {
    const { key, device } = await begin();
    const nonce = await tokenNonce(srv.url, key, now);
    const proof = async () => dpopProof(key, { htm: 'POST', htu: tokenUrl(), nonce, now });
    const fields = { grant_type: DEVICE_GRANT, device_code: device.device_code, client_id: 'assistant-cards-vscode' };
    oauthError(await postForm(tokenUrl(), { ...fields, resource: 'https://elsewhere.example/v1' }, { DPoP: await proof() }), 'invalid_target');
    oauthError(await postForm(tokenUrl(), { ...fields, device_code: [device.device_code, device.device_code] }, { DPoP: await proof() }), 'invalid_request');
    const secret = await postForm(tokenUrl(), { ...fields, client_secret: 'guess' }, { DPoP: await proof() });
    assert.equal(secret.status, 401);
    assert.equal(secret.json.error, 'invalid_client');
    assert.match(secret.headers.get('www-authenticate') ?? '', /^Basic/);
    // None of those counted as a poll.
    oauthError(await poll(key, device.device_code), 'authorization_pending');
  });

  it('a website with a server cannot use the device flow', async () => {
    const web = await call('POST', `${srv.url}/_sandbox/apps`, { name: 'Site', verified: true, domain: 'site.example', confidential: true, scopes: ['cards:read'], redirectUris: ['https://site.example/cb'] });
    const res = await startDevice(srv.url, { key: makeKey(), machine, clientId: web.json.clientId, now });
    assert.equal(res.status, 400);
    assert.equal(res.json.error, 'unauthorized_client');
  });

  it('approve and deny through the control surface refuse bad input', async () => {
    const { device } = await begin(makeKey(), ['cards:read']);
    assert.equal((await call('POST', `${srv.url}/_sandbox/device/approve`, {})).json.code, 'invalid');
    assert.equal((await call('POST', `${srv.url}/_sandbox/device/approve`, { user_code: 'ZZZZ-ZZZZ' })).status, 404);
    const extra = await call('POST', `${srv.url}/_sandbox/device/approve`, { user_code: device.user_code, scopes: ['cards:read', 'presence:desk'] });
    assert.equal(extra.status, 400);
    assert.equal(extra.json.errors[0].field, 'scopes');
    assert.equal((await call('POST', `${srv.url}/_sandbox/device/approve`, { user_code: device.user_code, scopes: [] })).status, 400);
    assert.equal((await call('POST', `${srv.url}/_sandbox/device/deny`, { user_code: device.user_code })).status, 200);
    assert.equal((await call('POST', `${srv.url}/_sandbox/device/approve`, { user_code: device.user_code })).status, 409);
  });
});

describe('sandbox oauth: what a device sign-in is', () => {
  let srv: AuthServer;
  const now = () => srv.clock.now();
  before(async () => {
    srv = await startAuthServer();
  });
  after(() => srv.close());

  it('GET /v1/me describes it, with an ETag and 304', async () => {
    const s = await signIn(srv.url, { now, machineName: 'laptop', scopes: ['cards:read', 'cards:answer'] });
    const me = await s.request('GET', '/v1/me');
    assert.equal(me.status, 200, me.text);
    assert.equal(me.json.user.id, 'usr_test-person');
    assert.equal(me.json.workspace.id, 'ws_test-workspace');
    assert.deepEqual(me.json.app, { id: 'app_assistant-cards-vscode', name: 'Assistant Cards for VS Code', verified: false });
    assert.match(me.json.grant.id, /^apg_[A-Za-z0-9-]+$/);
    assert.deepEqual(me.json.grant.scopes, ['cards:read', 'cards:answer']);
    assert.equal(me.json.grant.reach, 'machine');
    assert.deepEqual(me.json.grant.machine, { id: s.machine.id, name: 'laptop' });
    assert.equal(me.json.grant.dpop, true);
    assert.equal(Date.parse(me.json.grant.createdAt), now());
    assert.equal(Date.parse(me.json.grant.expiresAt), now() + 30 * 24 * 3600_000);
    const etag = me.headers.get('etag')!;
    assert.ok(etag);
    const again = await s.request('GET', '/v1/me', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  it('the person may allow fewer scopes than asked', async () => {
    const s = await signIn(srv.url, { now, scopes: ['cards:read', 'cards:answer', 'presence:desk'], approveScopes: ['cards:read'] });
    assert.equal(s.scope, 'cards:read');
    assert.deepEqual((await s.request('GET', '/v1/me')).json.grant.scopes, ['cards:read']);
  });

  it('a sign-in with cards:read:all reaches every card', async () => {
    const s = await signIn(srv.url, { now, scopes: ['cards:read', 'cards:read:all'] });
    const me = (await s.request('GET', '/v1/me')).json;
    assert.equal(me.grant.reach, 'all');
    assert.equal(me.grant.machine.id, s.machine.id);
  });

  it('signing in again with the same key replaces the sign-in; another key keeps its own', async () => {
    const machine = await makeMachine(srv.url, 'shared');
    const key = makeKey();
    const first = await signIn(srv.url, { now, machine, key });
    const other = await signIn(srv.url, { now, machine, key: makeKey() });
    const again = await signIn(srv.url, { now, machine, key });
    const old = await first.request('GET', '/v1/me');
    assert.equal(old.status, 401);
    assert.equal(old.json.error, 'invalid_token');
    assert.match(old.json.error_description, /revoked or replaced/);
    assert.equal((await again.request('GET', '/v1/me')).status, 200);
    assert.equal((await other.request('GET', '/v1/me')).status, 200);
    const ids = srv.auth.grants().map((g) => g.id);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('a sign-in bound to the computer\'s key renews on use', async () => {
    const s = await signIn(srv.url, { now });
    const created = Date.parse((await s.request('GET', '/v1/me')).json.grant.expiresAt);
    srv.clock.advance(10 * 60_000);
    const later = Date.parse((await s.request('GET', '/v1/me')).json.grant.expiresAt);
    assert.equal(later - created, 10 * 60_000);
  });

  it('an unverified app works only for its owner and up to 10 testers', async () => {
    const reg = await call('POST', `${srv.url}/_sandbox/apps`, { name: 'Beta tool', verified: false, scopes: ['cards:read'], owner: 'usr_maker', testers: ['usr_tester-1'] });
    assert.equal(reg.status, 201, reg.text);
    const owner = await signIn(srv.url, { now, clientId: reg.json.clientId, as: 'usr_maker' });
    assert.equal((await owner.request('GET', '/v1/me')).json.user.id, 'usr_maker');
    const tester = await signIn(srv.url, { now, clientId: reg.json.clientId, as: 'usr_tester-1' });
    assert.equal((await tester.request('GET', '/v1/me')).status, 200);
    // Someone else: the approval is refused, and the poll hears access_denied.
    const key = makeKey();
    const machine = await makeMachine(srv.url);
    const dev = await startDevice(srv.url, { key, machine, clientId: reg.json.clientId, now });
    const approve = await call('POST', `${srv.url}/_sandbox/device/approve`, { user_code: dev.json.user_code });
    assert.equal(approve.status, 403);
    assert.match(approve.json.detail, /not verified/);
    const nonce = await tokenNonce(srv.url, key, now);
    const polled = await postForm(`${srv.url}/oauth/token`, { grant_type: DEVICE_GRANT, device_code: dev.json.device_code, client_id: reg.json.clientId }, {
      DPoP: await dpopProof(key, { htm: 'POST', htu: `${srv.url}/oauth/token`, nonce, now }),
    });
    assert.equal(polled.json.error, 'access_denied');
    // A verified app is open to every person.
    const open = await call('POST', `${srv.url}/_sandbox/apps`, { name: 'Public tool', verified: true, scopes: ['cards:read'], owner: 'usr_maker' });
    assert.equal((await (await signIn(srv.url, { now, clientId: open.json.clientId })).request('GET', '/v1/me')).json.app.verified, true);
  });

  it('a removed app: its sign-ins answer app_not_available, and it cannot start a sign-in', async () => {
    const reg = await call('POST', `${srv.url}/_sandbox/apps`, { name: 'Soon gone', verified: true, scopes: ['cards:read'] });
    const s = await signIn(srv.url, { now, clientId: reg.json.clientId });
    assert.equal((await call('DELETE', `${srv.url}/_sandbox/apps/${reg.json.id}`)).status, 200);
    const res = await s.request('GET', '/v1/me');
    assert.equal(res.status, 403);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(res.json.code, 'app_not_available');
    assert.match(res.json.requestId, /^rid_/);
    const refresh = await s.refresh();
    assert.equal(refresh.status, 401);
    assert.equal(refresh.json.error, 'invalid_client');
    const again = await startDevice(srv.url, { key: makeKey(), machine: s.machine, clientId: reg.json.clientId, now });
    assert.equal(again.json.error, 'invalid_client');
    assert.match(again.json.error_description, /app_not_available/);
  });

  it('GET /v1/me runs meGuard (server.ts counts its limits there) and answers what it throws', async () => {
    const s = await signIn(srv.url, { now });
    const seen: string[] = [];
    srv.auth.meGuard = (_req, grant) => {
      seen.push(grant.id);
      if (seen.length > 1) throw new ProblemError('rate_limited', 'Too many reads.', { retryAfter: 7 });
    };
    try {
      assert.equal((await s.request('GET', '/v1/me')).status, 200);
      const limited = await s.request('GET', '/v1/me');
      assert.equal(limited.status, 429);
      assert.equal(limited.json.code, 'rate_limited');
      assert.equal(limited.headers.get('retry-after'), '7');
      assert.equal(seen.length, 2);
    } finally {
      srv.auth.meGuard = undefined;
    }
  });

  it('reset leaves the built-in app only, no computers, no sign-ins', async () => {
    const s = await signIn(srv.url, { now });
    srv.auth.reset();
    assert.equal(srv.auth.machines.size, 0);
    assert.equal(srv.auth.grants().length, 0);
    assert.equal((await s.request('GET', '/v1/me')).status, 401);
    const apps = await call('GET', `${srv.url}/_sandbox/apps`);
    assert.deepEqual(apps.json.apps.map((a: { clientId: string }) => a.clientId), ['assistant-cards-vscode']);
  });

  it('keyFromPrivateJwk round-trips a computer key (helper sanity)', async () => {
    const m = await makeMachine(srv.url);
    assert.equal(keyFromPrivateJwk(m.privateJwk).publicJwk.x, m.privateJwk.x);
  });
});
