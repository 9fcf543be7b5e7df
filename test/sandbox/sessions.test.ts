// Sessions (src/sandbox/sessions.ts): the one writer of assistants, agents, live sessions and
// their keys, which /_ask and the control surface both call. A session's key (#52 F9) is kept in
// the store, by its hash: a restart of the service keeps the session and its key, and the file
// never holds the key a hook sends.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunningSandbox } from '../../src/sandbox';
import { tokenHash } from '../../src/sandbox/store/token-table';
import { call, startSandbox } from './helpers';

describe('Sessions: assistants, agents, sessions and their keys', function () {
  this.timeout(30_000);
  let dir: string;
  let sb: RunningSandbox | undefined;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-sessions-')); });
  afterEach(async () => {
    await sb?.close();
    sb = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const send = async (method: string, route: string, key: string, body?: unknown) => {
    const r = await fetch(`${sb!.url}${route}`, {
      method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    return { status: r.status, json: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
  };
  /** This computer, set up as the editor would (the asking surface needs one). */
  const setUp = async () => {
    const m = await call('POST', `${sb!.url}/_sandbox/machines`, { name: 'laptop', writeTo: path.join(dir, 'machine.json') });
    assert.equal(m.status, 201, m.text);
    return m.json.id as string;
  };
  const register = (appSessionId: string, key: string) =>
    send('POST', '/_ask/sessions', key, { app: 'claude-code', appSessionId, cwd: '/home/dev/shop' });
  const ask = (appSessionId: string, key: string) =>
    send('POST', '/_ask/cards', key, { appSessionId, kind: 'text', title: 'Name it', reason: 'ask' });

  it('a session\'s key outlives a restart of the service on its store; the file holds only its hash', async () => {
    const storeFile = path.join(dir, 'data', 'store.db');
    sb = await startSandbox({ port: 0, storeFile, askKey: 'ask-key-of-this-run', workDir: dir });
    await setUp();
    const reg = await register('s-1', sb.askKey);
    assert.equal(reg.status, 200, JSON.stringify(reg.json));
    const key = reg.json.sessionKey as string;
    assert.equal((await ask('s-1', key)).status, 200);
    await sb.close();

    sb = await startSandbox({ port: 0, storeFile, askKey: 'ask-key-of-this-run', workDir: dir });
    const asked = await ask('s-1', key);
    assert.equal(asked.status, 200, `the key works after the restart: ${JSON.stringify(asked.json)}`);
    // Still the session's own: the run's ask key cannot take the session over.
    assert.equal((await register('s-1', sb.askKey)).status, 409);
    const again = await register('s-1', key);
    assert.equal(again.status, 200);
    assert.equal(again.json.sessionKey, key, 'registering again with its own key gives the same key back');
    assert.equal(again.json.new, false);
    await sb.close();
    sb = undefined;

    const bytes = fs.readFileSync(storeFile).toString('latin1');
    assert.ok(!bytes.includes(key), 'no session key in the file');
    assert.ok(bytes.includes(tokenHash(key)), 'its hash is');
  });

  it('an ended session\'s key is forgotten in the store too; the control surface writes through the same Sessions', async () => {
    const storeFile = path.join(dir, 'data', 'store.db');
    sb = await startSandbox({ port: 0, storeFile, askKey: 'ask-key-of-this-run', workDir: dir });
    const machineId = await setUp();
    const key = (await register('s-2', sb.askKey)).json.sessionKey as string;
    assert.equal((await send('DELETE', '/_ask/sessions/s-2', key)).status, 200);
    // The control surface's assistant, agent and session land in the same tables /_ask reads.
    const a = await call('POST', `${sb.url}/_sandbox/assistants`, { name: 'web', app: 'codex', machineId });
    assert.ok(a.status < 300, a.text);
    const g = await call('POST', `${sb.url}/_sandbox/agents`, { assistantId: a.json.id, name: 'main' });
    assert.ok(g.status < 300, g.text);
    const s = await call('POST', `${sb.url}/_sandbox/sessions`, { agentId: g.json.id, cwd: '/w', appSessionId: 's-3' });
    assert.ok(s.status < 300, s.text);
    await sb.close();

    sb = await startSandbox({ port: 0, storeFile, askKey: 'ask-key-of-this-run', workDir: dir });
    assert.equal((await ask('s-2', key)).status, 401, 'the ended session\'s key is no key after the restart');
    const re = await register('s-2', sb.askKey);
    assert.equal(re.status, 200);
    assert.notEqual(re.json.sessionKey, key, 'registered again, it gets a new key');
    assert.equal(sb.sandbox.state.assistants.get(a.json.id as string)?.name, 'web');
    assert.equal(sb.sandbox.state.sessions.get('s-3')?.agentId, g.json.id);
    // s-3 is the codex assistant's session (made by the control surface): Claude Code's registration of it is refused.
    assert.equal((await register('s-3', sb.askKey)).status, 409);
  });
});
