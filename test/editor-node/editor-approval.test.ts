// #51 F2, the editor's side: what asks to sign in is read, and the person's decision sent, with
// the owner key from service.json; the key goes only to the service that proved its ask key.
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { RunningSandbox } from '../../src/sandbox';
import type { ServiceState } from '../../src/bridge/service-state';
import { newIdentity, publicOf } from '../../src/sandbox/machine-file';
import { decideSignIn, signInAsking } from '../../src/editor/connection/editor-approval';
import { makeKey, startDevice, startSandbox } from '../sandbox/helpers';

describe('editor: allowing a sign-in to the local service', () => {
  let sb: RunningSandbox;
  let state: ServiceState;
  beforeEach(async () => {
    sb = await startSandbox({ port: 0, mode: 'service' });
    state = { version: 1, url: sb.url, pid: process.pid, askKey: sb.askKey, ownerKey: sb.sandbox.ownerKey!, machineFile: '/nowhere', home: '/nowhere', startedAt: '' };
  });
  afterEach(async () => { await sb.close(); });

  it('names the app and the computer asking, and the person\'s Allow is taken', async () => {
    const identity = newIdentity('desk-42', sb.url);
    sb.sandbox.auth.machines.set(identity.id, { id: identity.id, name: identity.name, publicJwk: publicOf(identity.privateJwk) });
    const device = await startDevice(sb.url, { key: makeKey(), machine: { id: identity.id, name: identity.name, privateJwk: identity.privateJwk } });
    const asking = await signInAsking(state, device.json.user_code as string);
    assert.ok(!('refused' in asking));
    assert.equal(asking.machine.name, 'desk-42');
    assert.match(asking.app.name, /\S/);
    assert.equal(await decideSignIn(state, device.json.user_code as string, true), undefined);
    assert.match(await decideSignIn(state, device.json.user_code as string, true) ?? '', /already allowed/);
    const unknown = await signInAsking(state, 'ZZZZ-ZZZZ');
    assert.ok('refused' in unknown && /no sign-in waits/.test(unknown.refused));
  });

  it('a program on the port that cannot prove the ask key never gets the owner key', async () => {
    const seen: (string | undefined)[] = [];
    const other = http.createServer((req, res) => { seen.push(req.headers.authorization); res.end('{"proof":"no"}'); });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      const impostor = { ...state, url: `http://127.0.0.1:${(other.address() as { port: number }).port}` };
      await assert.rejects(decideSignIn(impostor, 'ABCD-EFGH', true), /did not prove its key/);
      assert.deepEqual(seen, [undefined]);
    } finally {
      await new Promise((r) => other.close(r));
    }
  });
});
