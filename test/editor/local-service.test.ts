// #51: the person's local service started from its command, in a real window. It runs as a
// process of its own (detached, its own process group, VS Code's runtime), the window is set up
// for it and builds its client core from the identity file the service wrote, and it has no
// control surface. Stop Local Service ends it: its announcement goes, and a hook asked at that
// moment prints nothing within a second (the CLI asks in its own terminal); no window starts it
// again by itself.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SERVICE_FILE } from '../../src/bridge/home';
import { processGone } from '../../src/bridge/process-alive';
import { readServiceFile } from '../../src/bridge/service-link';
import { readServiceState } from '../../src/bridge/service-state';
import { runHook } from '../../src/bridge/hook';
import { theApp, until } from './cards-helpers';
import { testEnv } from './helpers/env';

const permission = JSON.stringify({
  session_id: 'sess-ls', transcript_path: '/tmp/t.jsonl', cwd: '/home/dev/shop', hook_event_name: 'PermissionRequest',
  tool_name: 'Bash', tool_input: { command: 'make release', description: 'Release' }, permission_suggestions: [],
});

describe('local service: Start Local Service, then Stop', function () {
  this.timeout(90_000);
  const cfg = () => vscode.workspace.getConfiguration('assistantCards');

  after(async () => {
    const app = await theApp();
    // The window first stops needing it (else its next look starts it again), then it goes.
    await cfg().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('machineFile', testEnv.machineFile, vscode.ConfigurationTarget.Global);
    const state = readServiceState((await app.localService.load()).home);
    if (state) { try { process.kill(state.pid, 'SIGTERM'); } catch { /* gone */ } }
    // The mark of the test's Stop stays: a window still counting itself set up for it does not start it again.
    await app.refreshState();
  });

  it('starts from its command as a process of its own and the window uses it; after Stop a hook falls back within a second', async () => {
    const app = await theApp();
    const home = (await app.localService.load()).home;
    void vscode.commands.executeCommand('assistantCards.startLocalService'); // ends on a "Sign In?" notification nobody answers here
    const state = await until('the local service runs', () => readServiceState(home), 30_000);
    assert.notEqual(state.pid, process.pid);
    if (process.platform === 'linux') {
      const stat = fs.readFileSync(`/proc/${state.pid}/stat`, 'utf8');
      assert.equal(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]), state.pid, 'its own process group: the window\'s end does not end it');
    }
    await until('the window set up for it', () => cfg().get<string>('machineFile') === state.machineFile || undefined, 30_000);
    await until('a client core for it, from its identity file', () => app.live?.key.startsWith(`${state.url}|`) || undefined, 30_000);
    assert.equal((await fetch(`${state.url}/_sandbox/changes`)).status, 404, 'no control surface');
    const announced = path.join(path.dirname(home), SERVICE_FILE);
    assert.equal(readServiceFile(announced)?.url, state.url);

    await vscode.commands.executeCommand('assistantCards.stopLocalService');
    assert.ok(processGone(state.pid));
    const started = Date.now();
    const out = await runHook({ app: 'claude-code', input: permission, service: readServiceFile(announced), terminal: () => ({}), waitMs: 60_000 });
    assert.equal(out, '');
    assert.ok(Date.now() - started < 1_000, 'the CLI takes over within a second');
    // Stopped by the person: the window's look (every 5 s) does not start it again.
    await new Promise((r) => setTimeout(r, 6_000));
    assert.equal(readServiceState(home), undefined);
  });
});
