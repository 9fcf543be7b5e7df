// The sandbox's server in its service mode (#51): no control surface at all (F7), and a device
// sign-in allowed only by the editor with the owner key, never on a page any local process can
// post to (F2). In-process, through startSandbox({mode: 'service'}).
import { strict as assert } from 'node:assert';
import type { RunningSandbox } from '../../src/sandbox';
import { newIdentity, publicOf } from '../../src/sandbox/machine-file';
import { EDITOR_APPROVAL_PATH } from '../../src/sandbox/auth/editor-approval-routes';
import { call, dpopProof, makeKey, postForm, startDevice, startSandbox, tokenNonce, type Machine } from './helpers';

describe('sandbox: service mode', () => {
  let sb: RunningSandbox;
  let machine: Machine;
  beforeEach(async () => {
    sb = await startSandbox({ port: 0, mode: 'service' });
    const identity = newIdentity('test-computer', sb.url);
    sb.sandbox.auth.machines.set(identity.id, { id: identity.id, name: identity.name, publicJwk: publicOf(identity.privateJwk) });
    machine = { id: identity.id, name: identity.name, privateJwk: identity.privateJwk };
  });
  afterEach(async () => { await sb.close(); });

  it('F7: no /_sandbox route at all: the control reads, writes, faults, reset and clock are absent', async () => {
    assert.deepEqual(sb.sandbox.routes.filter((r) => r.url.startsWith('/_sandbox')), []);
    for (const [method, path] of [['GET', '/_sandbox/changes'], ['GET', '/_sandbox/cards/crd_x'], ['GET', '/_sandbox/received'], ['POST', '/_sandbox/reset'], ['POST', '/_sandbox/clock/advance'], ['POST', '/_sandbox/machines']] as const) {
      const res = await call(method, `${sb.url}${path}`, method === 'POST' ? {} : undefined, { authorization: `Bearer ${sb.controlSecret}` });
      assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
    }
    // The Person API, the notice address, the asking surface and the sign-in are there.
    const urls = new Set(sb.sandbox.routes.map((r) => r.url));
    for (const u of ['/v1/cards', '/oauth/device', '/oauth/token', '/_ask/proof', EDITOR_APPROVAL_PATH + '/:code']) assert.ok(urls.has(u), u);
    assert.ok([...urls].some((u) => u.startsWith('/in/')));
    assert.ok([...urls].some((u) => u.startsWith('/_ask/') && u !== '/_ask/proof'));
  });

  it('F7: a manual clock and the demo are refused in this mode', async () => {
    await assert.rejects(startSandbox({ port: 0, mode: 'service', manualClock: true }), /real time/);
    await assert.rejects(startSandbox({ port: 0, mode: 'service', demo: true }), /no demo/);
  });

  it('F2: a sign-in not allowed in the editor gets no token; the page and the control surface cannot allow it', async () => {
    const key = makeKey();
    const device = await startDevice(sb.url, { key, machine });
    assert.equal(device.status, 200, device.text);
    const code = device.json.user_code as string;
    // The page says where to decide and carries no form.
    const page = await call('GET', `${sb.url}/device?user_code=${encodeURIComponent(code)}`);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /<form/);
    assert.match(page.text, /VS Code/);
    // What a process of another user (or a page) can send: the form, the control surface, no key.
    assert.equal((await postForm(`${sb.url}/device`, { user_code: code, action: 'allow', scope: 'cards:read' })).status, 404);
    assert.equal((await call('POST', `${sb.url}/_sandbox/device/approve`, { user_code: code })).status, 404);
    assert.equal((await call('POST', `${sb.url}${EDITOR_APPROVAL_PATH}/${code}`, { allow: true })).status, 401);
    assert.equal((await call('POST', `${sb.url}${EDITOR_APPROVAL_PATH}/${code}`, { allow: true }, { authorization: `Bearer ${sb.askKey}` })).status, 401);
    const htu = `${sb.url}/oauth/token`;
    const poll = async () => postForm(htu, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.json.device_code, client_id: 'assistant-cards-vscode' },
      { DPoP: await dpopProof(key, { htm: 'POST', htu, nonce: await tokenNonce(sb.url, key) }) });
    const pending = await poll();
    assert.equal(pending.status, 400);
    assert.equal(pending.json.error, 'authorization_pending');

    // The editor reads what asks (the app and the computer, for its dialog) and sends the person's Allow.
    const owner = { authorization: `Bearer ${sb.sandbox.ownerKey!}` };
    const asks = await call('GET', `${sb.url}${EDITOR_APPROVAL_PATH}/${code}`, undefined, owner);
    assert.equal(asks.status, 200, asks.text);
    assert.equal(asks.json.machine.name, 'test-computer');
    assert.equal(typeof asks.json.app.name, 'string');
    const noted: string[] = [];
    sb.sandbox.onSignedIn = (d) => noted.push(d.machine.name);
    const allowed = await call('POST', `${sb.url}${EDITOR_APPROVAL_PATH}/${code}`, { allow: true }, owner);
    assert.equal(allowed.status, 200, allowed.text);
    assert.deepEqual(noted, ['test-computer']);
    await new Promise((r) => setTimeout(r, 3_100)); // the device flow's polling interval
    const token = await poll();
    assert.equal(token.status, 200, token.text);
    assert.equal(typeof token.json.access_token, 'string');
  });

  it('F2: the person\'s Deny in the editor ends the sign-in', async () => {
    const key = makeKey();
    const device = await startDevice(sb.url, { key, machine });
    const owner = { authorization: `Bearer ${sb.sandbox.ownerKey!}` };
    const denied = await call('POST', `${sb.url}${EDITOR_APPROVAL_PATH}/${device.json.user_code as string}`, { allow: false }, owner);
    assert.equal(denied.status, 200, denied.text);
    assert.equal(denied.json.status, 'denied');
  });
});
