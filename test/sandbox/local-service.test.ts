// The local service as a process of its own (#51): `sandbox.js --service` in a home of the test's
// own. It says it is ready in one JSON line and in service.json; its folder is the person's only;
// a second start finds the running one, two at once make one; it removes what it announced when
// it is stopped, and a file a killed one left is ignored.
import { strict as assert } from 'node:assert';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_FILE } from '../../src/bridge/home';
import { LOCAL_SERVICE_FILES } from '../../src/bridge/service-files';
import { readServiceFile, socketIsPrivate } from '../../src/bridge/service-link';
import { readServiceState } from '../../src/sandbox/local-service';
import { readIdentity } from '../../src/sandbox/machine-file';
import { until } from '../kit/until';
import { call, makeKey, startDevice } from './helpers';
import { spawnService, tempHome, type ServiceRun } from './service-process';

describe('local service process', function () {
  this.timeout(60_000);
  const runs: ServiceRun[] = [];
  const start = async (home: string, args: string[] = []) => { const r = await spawnService(home, args); runs.push(r); return r; };
  afterEach(async () => {
    for (const r of runs.splice(0)) if (r.child.exitCode === null && r.child.signalCode === null) { r.child.kill('SIGKILL'); await r.exited; }
  });

  it('starts ready: one JSON line, service.json and local-service.json (0600) in a 0700 home, this computer set up, no /_sandbox', async () => {
    const bridge = tempHome();
    const run = await start(bridge);
    const line = await run.line;
    assert.equal(line.event, 'ready');
    assert.equal(line.pid, run.child.pid);
    const home = join(bridge, 'service');
    assert.equal(statSync(home).mode & 0o777, 0o700);
    for (const f of [join(home, LOCAL_SERVICE_FILES.state), join(bridge, SERVICE_FILE), join(home, LOCAL_SERVICE_FILES.machine)]) assert.equal(statSync(f).mode & 0o777, 0o600, f);
    const state = readServiceState(home)!;
    assert.equal(state.url, line.url);
    assert.equal(state.pid, run.child.pid);
    const identity = readIdentity(state.machineFile)!;
    assert.equal(identity.baseUrl, line.url);
    const announced = readServiceFile(join(bridge, SERVICE_FILE))!;
    assert.equal(announced.url, line.url);
    // The hooks' socket in the 0700 home: its folder's permissions say whom they talk to (ask-socket.ts).
    assert.equal(announced.socket, join(home, 'ask.sock'));
    assert.ok(socketIsPrivate(announced.socket!), 'the socket is this user\'s alone');
    assert.equal((await fetch(`${line.url}/_sandbox/changes`)).status, 404);
    assert.equal((await fetch(`${line.url}/v1/cards`)).status, 401);
  });

  it('refuses the sandbox\'s flags', async () => {
    const run = await start(tempHome(), ['--demo']);
    assert.equal(await run.exited, 2);
  });

  it('one at a time: two starts at once make one service; a later start finds it', async () => {
    const bridge = tempHome();
    const [a, b] = await Promise.all([start(bridge), start(bridge)]);
    const lines = await Promise.all([a.line, b.line]);
    assert.deepEqual(lines.map((l) => l.event).sort(), ['ready', 'running']);
    assert.equal(lines[0]!.url, lines[1]!.url);
    assert.equal(lines[0]!.pid, lines[1]!.pid);
    const loser = lines[0]!.event === 'running' ? a : b;
    assert.equal(await loser.exited, 0);
    const c = await start(bridge);
    assert.equal((await c.line).event, 'running');
    assert.equal((await c.line).pid, lines[0]!.pid);
  });

  it('stopped (SIGTERM): its announcements are gone and its identity names no address; started again, on the same port, with the same computer and ask key', async () => {
    const bridge = tempHome();
    const first = await start(bridge);
    const line = await first.line;
    const home = join(bridge, 'service');
    const before = readServiceState(home)!;
    const computer = readIdentity(before.machineFile)!.id;
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
    assert.throws(() => readFileSync(join(bridge, SERVICE_FILE)), /ENOENT/);
    assert.throws(() => readFileSync(join(home, LOCAL_SERVICE_FILES.state)), /ENOENT/);
    assert.throws(() => readFileSync(join(home, LOCAL_SERVICE_FILES.lock)), /ENOENT/);
    assert.throws(() => statSync(join(home, 'ask.sock')), /ENOENT/, 'the socket goes with it');
    assert.equal(readIdentity(before.machineFile)?.baseUrl, '');
    const again = await start(bridge);
    const line2 = await again.line;
    assert.equal(line2.event, 'ready');
    assert.equal(readIdentity(before.machineFile)?.id, computer);
    // The same ask key: the hooks' kept session keys are filed under it (bridge/session-keys.ts).
    assert.equal(readServiceState(home)?.askKey, before.askKey);
    assert.equal(statSync(join(home, LOCAL_SERVICE_FILES.askKey)).mode & 0o777, 0o600);
    assert.equal(readServiceState(home)?.machineFile, before.machineFile);
    assert.equal(readIdentity(before.machineFile)?.baseUrl, line2.url);
    // The port the window signed in at, free again (were it taken meanwhile, another would do).
    assert.equal(line2.url, line.url);
  });

  it('killed (SIGKILL): what it left names a dead process and is ignored and removed; the next start takes its stale lock', async () => {
    const bridge = tempHome();
    const run = await start(bridge);
    await run.line;
    const home = join(bridge, 'service');
    run.child.kill('SIGKILL');
    await run.exited;
    assert.ok(readFileSync(join(bridge, SERVICE_FILE), 'utf8').includes(String(run.child.pid)));
    assert.equal(readServiceFile(join(bridge, SERVICE_FILE)), undefined);
    assert.throws(() => readFileSync(join(bridge, SERVICE_FILE)), /ENOENT/);
    assert.equal(readServiceState(home), undefined);
    const next = await start(bridge);
    const line = await next.line;
    assert.equal(line.event, 'ready');
    await until('its announcement', () => readServiceFile(join(bridge, SERVICE_FILE))?.pid === next.child.pid, 5_000);
  });

  it('a sign-in the person allowed in the editor is noted (0600) for every window to tell of', async () => {
    const bridge = tempHome();
    const run = await start(bridge);
    await run.line;
    const home = join(bridge, 'service');
    const state = readServiceState(home)!;
    const identity = readIdentity(state.machineFile)!;
    const device = await startDevice(state.url, { key: makeKey(), machine: { id: identity.id, name: identity.name, privateJwk: identity.privateJwk } });
    assert.equal(device.status, 200, device.text);
    const allowed = await call('POST', `${state.url}/_local/sign-ins/${device.json.user_code as string}`, { allow: true }, { authorization: `Bearer ${state.ownerKey}` });
    assert.equal(allowed.status, 200, allowed.text);
    const file = join(home, LOCAL_SERVICE_FILES.signIns);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { app: string; machine: string });
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.machine, identity.name);
    assert.match(lines[0]!.app, /\S/);
  });
});
