// The watcher that ends a session when its terminal UI exits (src/bridge/ui-watch.ts): plain
// `codex` runs its hooks in a shared server that keeps the thread a minute after the UI quit. Here
// a `sleep` stands in for the UI and `sh -c 'cat > file'` for the bridge's hook command.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { claimedUi, claimedUis, claimFile, forgetUi, watchUi, type UiSession } from '../../src/bridge/ui-watch';
import { until } from '../kit/until';

describe('bridge: a session ends when its terminal UI exits (ui-watch)', function () {
  this.timeout(30_000);
  let dir: string;
  const uis: ReturnType<typeof spawn>[] = [];
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ui-watch-')); });
  afterEach(() => {
    for (const u of uis.splice(0)) u.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const ui = () => { const u = spawn('sleep', ['60'], { stdio: 'ignore' }); uis.push(u); return u; };
  const session = (id: string): UiSession => ({ dir: path.join(dir, 'sessions'), askKey: 'ask-key', app: 'codex', appSessionId: id });

  it('the UI exits: the hook command gets the session\'s end on stdin, once, from one watcher', async () => {
    const u = ui();
    const out = path.join(dir, 'ended');
    const hook = ['sh', '-c', `cat >> ${JSON.stringify(out)}; echo >> ${JSON.stringify(out)}`];
    const event = JSON.stringify({ hook_event_name: 'SessionEnd', session_id: 's-1', reason: 'ui-exited' });
    assert.equal(watchUi(session('s-1'), u.pid!, event, hook), true, 'a watcher started');
    assert.equal(watchUi(session('s-1'), u.pid!, event, hook), false, 'the next event of the session starts none');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(fs.existsSync(out), false, 'nothing while the UI runs');
    u.kill('SIGKILL');
    // Whole once the newline after it is written.
    const ended = await until('the end run', () => { const t = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : ''; return t.endsWith('\n') ? t : undefined; }, 10_000, 50);
    assert.equal(ended.trim(), event);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(fs.readFileSync(out, 'utf8').trim(), event, 'one end, not one per event');
  });

  it('claims: another session\'s UI counts while it runs; a session\'s own claim and a forgotten one do not', () => {
    const a = ui();
    const b = ui();
    watchUi(session('s-a'), a.pid!, '{}', ['true']);
    watchUi(session('s-b'), b.pid!, '{}', ['true']);
    assert.deepEqual([...claimedUis(session('s-b').dir, claimFile(session('s-b')))], [a.pid]);
    forgetUi(session('s-a'));
    assert.deepEqual([...claimedUis(session('s-b').dir, claimFile(session('s-b')))], []);
    assert.deepEqual([...claimedUis(session('s-a').dir, claimFile(session('s-a')))], [b.pid]);
    assert.equal((fs.statSync(claimFile(session('s-b'))).mode & 0o777).toString(8), '600');
  });

  it('a claimed UI that is gone claims nothing, not even for its own session', async () => {
    const a = ui();
    assert.equal(claimedUi(session('s-a')), undefined, 'nothing claimed yet');
    watchUi(session('s-a'), a.pid!, '{}', ['true']);
    assert.equal(claimedUi(session('s-a')), a.pid, 'the session\'s own UI, for its next events');
    a.kill('SIGKILL');
    await until('the UI gone', () => (claimedUis(session('s-x').dir, claimFile(session('s-x'))).size === 0 || undefined), 5_000, 50);
    assert.equal(claimedUi(session('s-a')), undefined);
  });
});
