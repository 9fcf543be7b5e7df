// The editor's start of the local service (#51), in plain Node: detached, on the runtime given
// (VS Code's own in the editor), with a log file; what it waits for is service.json, never text.
// A second window's start uses the running one; a start that fails says the service's own words;
// Stop ends it and what it announced goes with it.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVICE_FILE } from '../../src/bridge/home';
import { processGone } from '../../src/bridge/process-alive';
import { readServiceFile } from '../../src/bridge/service-link';
import { ensureLocalService, lastStartFailure, ServiceStartError, stopLocalService } from '../../src/editor/connection/service-starter';
import { serviceScript, tempHome } from '../sandbox/service-process';

describe('editor: starting the local service', function () {
  this.timeout(60_000);
  const started: number[] = [];
  afterEach(() => { for (const pid of started.splice(0)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } } });

  const startWith = async (bridge: string) => ({
    script: await serviceScript(), execPath: process.execPath, home: path.join(bridge, 'service'), env: { ...process.env, ASSISTANT_CARDS_HOME: bridge },
  });

  it('starts it detached with a log; a second start (another window) uses it; Stop ends it and its announcements', async () => {
    const bridge = tempHome();
    const w = await startWith(bridge);
    const first = await ensureLocalService(w);
    started.push(first.state.pid); // ended by the test's Stop; by afterEach if it fails first
    assert.equal(first.started, true);
    assert.ok(fs.existsSync(path.join(w.home, 'service.log')));
    // Its own process group: a window's end (its group's signal) does not reach it.
    assert.equal(readGroupOf(first.state.pid), first.state.pid);
    const second = await ensureLocalService(w);
    assert.equal(second.started, false);
    assert.equal(second.state.pid, first.state.pid);
    assert.equal(readServiceFile(path.join(bridge, SERVICE_FILE))?.url, first.state.url);
    assert.equal(await stopLocalService(w.home), true);
    assert.ok(processGone(first.state.pid));
    assert.equal(readServiceFile(path.join(bridge, SERVICE_FILE)), undefined);
    assert.equal(await stopLocalService(w.home), false);
  });

  it('two windows starting at once get one service', async () => {
    const bridge = tempHome();
    const w = await startWith(bridge);
    const [a, b] = await Promise.all([ensureLocalService(w), ensureLocalService(w)]);
    started.push(a.state.pid, b.state.pid);
    assert.equal(a.state.pid, b.state.pid);
    assert.equal([a.started, b.started].filter(Boolean).length, 1);
  });

  it('a start that fails says why in the service\'s words, and nothing it found is overwritten', async () => {
    const bridge = tempHome();
    const w = await startWith(bridge);
    fs.mkdirSync(w.home, { recursive: true, mode: 0o700 });
    const foreign = path.join(w.home, 'machine.json');
    fs.writeFileSync(foreign, 'not an identity', { mode: 0o600 });
    await assert.rejects(ensureLocalService(w), (e: unknown) => e instanceof ServiceStartError && /is there and is not an identity file this service made; it is left alone/.test(e.message));
    assert.equal(fs.readFileSync(foreign, 'utf8'), 'not an identity');
    assert.match(lastStartFailure(w.home) ?? '', /left alone/);
  });
});

/** The process group of `pid` (Linux /proc), or the pid itself elsewhere. */
function readGroupOf(pid: number): number {
  if (process.platform !== 'linux') return pid;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}
