// App registration through the control surface: every rule of the spec's "App registration".
import assert from 'node:assert/strict';
import { call, startAuthServer, type AuthServer } from './helpers';

describe('sandbox apps: registration rules', () => {
  let srv: AuthServer;
  before(async () => {
    srv = await startAuthServer();
  });
  after(() => srv.close());

  const register = (body: Record<string, unknown>) => call('POST', `${srv.url}/_sandbox/apps`, body);
  async function invalid(body: Record<string, unknown>, field: string, reason?: RegExp) {
    const res = await register(body);
    assert.equal(res.status, 400, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(res.json.code, 'invalid');
    const hit = (res.json.errors as { field: string; reason: string }[]).find((e) => e.field === field);
    assert.ok(hit, `expected an error on ${field}: ${res.text}`);
    if (reason) assert.match(hit.reason, reason);
  }
  const base = { name: 'Tool', verified: false, scopes: ['cards:read'], domain: 'tool.example' };

  it('starts with the built-in app: assistant-cards-vscode, unverified, every scope', async () => {
    const res = await call('GET', `${srv.url}/_sandbox/apps`);
    assert.equal(res.json.apps.length, 1);
    const app = res.json.apps[0];
    assert.equal(app.clientId, 'assistant-cards-vscode');
    assert.equal(app.verified, false);
    assert.deepEqual(app.scopes, ['cards:read', 'cards:read:all', 'cards:answer', 'cards:reply', 'cards:later', 'cards:delegate', 'assistants:read', 'presence:desk']);
  });

  it('registers an app: app_ id, client id, no secret for a public app, the proof token', async () => {
    const res = await register({ ...base, redirectUris: ['https://tool.example/cb'] });
    assert.equal(res.status, 201, res.text);
    assert.match(res.json.id, /^app_[A-Za-z0-9-]+$/);
    assert.ok(res.json.clientId);
    assert.equal(res.json.clientSecret, undefined);
    assert.match(res.json.proof.line, /^assistant-cards-app-verification=/);
    assert.equal(res.json.proof.dns.name, '_assistant-cards.tool.example');
    assert.equal(res.json.proof.file.url, 'https://tool.example/.well-known/assistant-cards-app-verification.txt');
  });

  it('needs a name and known scopes, each once', async () => {
    await invalid({ ...base, name: '' }, 'name');
    await invalid({ ...base, scopes: [] }, 'scopes');
    await invalid({ ...base, scopes: ['cards:read', 'cards:write'] }, 'scopes[1]', /unknown scope/);
    await invalid({ ...base, scopes: ['cards:read', 'cards:read'] }, 'scopes[1]', /twice/);
    await invalid({ ...base, verified: 'yes' }, 'verified');
    await invalid({ ...base, domain: 'Not A Domain' }, 'domain');
  });

  it('at most 10 redirect addresses', async () => {
    const uris = Array.from({ length: 11 }, (_, i) => `http://127.0.0.1/cb${i}`);
    await invalid({ ...base, redirectUris: uris }, 'redirectUris', /at most 10/);
    assert.equal((await register({ ...base, redirectUris: uris.slice(0, 10) })).status, 201);
  });

  it('https only on the app\'s domain or a subdomain', async () => {
    assert.equal((await register({ ...base, redirectUris: ['https://tool.example/cb', 'https://app.tool.example/cb'] })).status, 201);
    await invalid({ ...base, redirectUris: ['https://other.example/cb'] }, 'redirectUris[0]', /tool\.example/);
    await invalid({ ...base, redirectUris: ['https://eviltool.example/cb'] }, 'redirectUris[0]', /tool\.example/);
    await invalid({ ...base, domain: undefined, redirectUris: ['https://tool.example/cb'] }, 'redirectUris[0]', /domain/);
  });

  it('http only on 127.0.0.1 or localhost', async () => {
    assert.equal((await register({ ...base, redirectUris: ['http://127.0.0.1/cb', 'http://localhost:8080/cb'] })).status, 201);
    await invalid({ ...base, redirectUris: ['http://tool.example/cb'] }, 'redirectUris[0]', /127\.0\.0\.1/);
    await invalid({ ...base, redirectUris: ['http://192.168.1.2/cb'] }, 'redirectUris[0]', /127\.0\.0\.1/);
  });

  it('a custom scheme must be the domain reversed', async () => {
    assert.equal((await register({ ...base, redirectUris: ['example.tool:/cb', 'example.tool.desktop:/cb'] })).status, 201);
    await invalid({ ...base, redirectUris: ['myapp:/cb'] }, 'redirectUris[0]');
    await invalid({ ...base, redirectUris: ['com.other:/cb'] }, 'redirectUris[0]', /example\.tool/);
    await invalid({ ...base, redirectUris: ['javascript:alert(1)'] }, 'redirectUris[0]');
  });

  it('no wildcards, fragments, user info, duplicates or non-addresses', async () => {
    await invalid({ ...base, redirectUris: ['https://*.tool.example/cb'] }, 'redirectUris[0]', /wildcard/);
    await invalid({ ...base, redirectUris: ['https://tool.example/cb#x'] }, 'redirectUris[0]', /fragment/);
    await invalid({ ...base, redirectUris: ['https://me:pw@tool.example/cb'] }, 'redirectUris[0]', /user/);
    await invalid({ ...base, redirectUris: ['https://tool.example/cb', 'https://tool.example/cb'] }, 'redirectUris[1]', /twice/);
    await invalid({ ...base, redirectUris: ['/relative'] }, 'redirectUris[0]', /absolute/);
    await invalid({ ...base, redirectUris: 'https://tool.example/cb' }, 'redirectUris');
  });

  it('a web or desktop app always holds cards:read:all', async () => {
    const res = await register({ ...base, scopes: ['cards:answer'], redirectUris: ['http://127.0.0.1/cb'] });
    assert.deepEqual([...res.json.scopes].sort(), ['cards:answer', 'cards:read', 'cards:read:all']);
    const device = await register({ ...base, scopes: ['cards:answer'] });
    assert.deepEqual(device.json.scopes, ['cards:answer']);
  });

  it('a confidential app (website with a server) gets a secret once; it needs an https address', async () => {
    const res = await register({ ...base, confidential: true, redirectUris: ['https://tool.example/cb'] });
    assert.equal(res.status, 201);
    assert.ok(res.json.clientSecret.length >= 40);
    const shown = await call('GET', `${srv.url}/_sandbox/apps/${res.json.id}`);
    assert.equal(shown.json.clientSecret, undefined, 'the secret is shown once only');
    assert.equal(JSON.stringify(shown.json).includes(res.json.clientSecret), false);
    await invalid({ ...base, confidential: true, redirectUris: ['http://127.0.0.1/cb'] }, 'confidential', /https/);
    const pub = await register(base);
    const rotate = await call('POST', `${srv.url}/_sandbox/apps/${pub.json.id}/secret`);
    assert.equal(rotate.status, 400);
  });

  it('at most 10 named testers', async () => {
    const testers = Array.from({ length: 11 }, (_, i) => `usr_t${i}`);
    await invalid({ ...base, testers }, 'testers', /at most 10/);
    await invalid({ ...base, testers: ['bob'] }, 'testers[0]', /usr_/);
    const ok = await register({ ...base, testers: testers.slice(0, 10) });
    assert.equal(ok.status, 201);
    const put = await call('PUT', `${srv.url}/_sandbox/apps/${ok.json.id}/testers`, { testers });
    assert.equal(put.status, 400);
    assert.equal(put.json.errors[0].field, 'testers');
    const fewer = await call('PUT', `${srv.url}/_sandbox/apps/${ok.json.id}/testers`, { testers: ['usr_t1'] });
    assert.deepEqual(fewer.json.testers, ['usr_t1']);
  });

  it('a clientId may be chosen once', async () => {
    assert.equal((await register({ ...base, clientId: 'my-tool' })).status, 201);
    await invalid({ ...base, clientId: 'my-tool' }, 'clientId', /already/);
    await invalid({ ...base, clientId: 'assistant-cards-vscode' }, 'clientId', /already/);
  });

  it('verification by domain proof, then review; at most 5 awaiting at once', async () => {
    const made = [];
    for (let i = 0; i < 6; i++) made.push((await register({ ...base, name: `Queue ${i}`, owner: 'usr_queue-owner' })).json);
    const first = made[0];
    // Not before the domain is proven.
    const early = await call('POST', `${srv.url}/_sandbox/apps/${first.id}/verification`);
    assert.equal(early.status, 400);
    // A wrong line fails; the shown line in DNS or the well-known file proves it.
    const wrong = await call('POST', `${srv.url}/_sandbox/apps/${first.id}/proof`, { method: 'dns', line: 'assistant-cards-app-verification=guess' });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.json.errors[0].field, 'line');
    const badMethod = await call('POST', `${srv.url}/_sandbox/apps/${first.id}/proof`, { method: 'email', line: first.proof.line });
    assert.equal(badMethod.json.errors[0].field, 'method');
    for (const [i, app] of made.entries()) {
      const proof = await call('POST', `${srv.url}/_sandbox/apps/${app.id}/proof`, { method: i % 2 ? 'file' : 'dns', line: app.proof.line });
      assert.equal(proof.status, 200, proof.text);
      assert.equal(proof.json.domainProven, true);
    }
    for (const app of made.slice(0, 5)) {
      const res = await call('POST', `${srv.url}/_sandbox/apps/${app.id}/verification`);
      assert.equal(res.json.verification, 'awaiting', res.text);
    }
    const sixth = await call('POST', `${srv.url}/_sandbox/apps/${made[5].id}/verification`);
    assert.equal(sixth.status, 409);
    assert.match(sixth.json.detail, /at most 5/);
    // Another owner has their own five.
    const other = (await register({ ...base, owner: 'usr_other-owner' })).json;
    await call('POST', `${srv.url}/_sandbox/apps/${other.id}/proof`, { method: 'dns', line: other.proof.line });
    assert.equal((await call('POST', `${srv.url}/_sandbox/apps/${other.id}/verification`)).json.verification, 'awaiting');
    // Review decides; the freed place lets the sixth wait.
    const reviewed = await call('POST', `${srv.url}/_sandbox/apps/${first.id}/review`, { approved: true });
    assert.equal(reviewed.json.verified, true);
    assert.equal((await call('POST', `${srv.url}/_sandbox/apps/${made[5].id}/verification`)).json.verification, 'awaiting');
    const rejected = await call('POST', `${srv.url}/_sandbox/apps/${made[1].id}/review`, { approved: false });
    assert.equal(rejected.json.verification, 'unverified');
    assert.equal((await call('POST', `${srv.url}/_sandbox/apps/${made[1].id}/review`, { approved: true })).status, 409);
  });

  it('an app with no domain has nothing to prove', async () => {
    const res = (await register({ name: 'Local', verified: false, scopes: ['cards:read'] })).json;
    const proof = await call('POST', `${srv.url}/_sandbox/apps/${res.id}/proof`, { method: 'dns', line: res.proof.line });
    assert.equal(proof.status, 400);
    assert.equal(proof.json.errors[0].field, 'domain');
  });

  it('unknown apps are not_found; removing marks the app removed', async () => {
    assert.equal((await call('GET', `${srv.url}/_sandbox/apps/app_nope`)).status, 404);
    assert.equal((await call('DELETE', `${srv.url}/_sandbox/apps/app_nope`)).status, 404);
    const res = (await register(base)).json;
    const removed = await call('DELETE', `${srv.url}/_sandbox/apps/${res.id}`);
    assert.equal(removed.json.removed, true);
  });
});
