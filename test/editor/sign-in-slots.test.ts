// In the real editor (VS Code SecretStorage): a sign-in is kept per service and computer, so
// "Start Local Sandbox"-style switches of baseUrl and identity file never sign the person out of
// the service they came from, and the other service starts signed out instead of trying them.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { signInApproved, theApp, until, unwire, wire } from './cards-helpers';
import type { World } from './cards-helpers';
import { testEnv } from './helpers/env';
import { startSandboxProcess, type RunningSandbox } from './helpers/sandbox';

describe('editor: a sign-in per service and computer', function () {
  this.timeout(120_000);
  let a: World | undefined;
  let b: RunningSandbox | undefined;

  after(async () => {
    const cfg = vscode.workspace.getConfiguration('assistantCards');
    await cfg.update('machineFile', testEnv.machineFile, vscode.ConfigurationTarget.Global);
    await b?.close();
    await unwire(a);
  });

  it('switching to another service and back keeps the first sign-in', async () => {
    a = await wire();
    await signInApproved(a);
    const app = await theApp();
    const cfg = vscode.workspace.getConfiguration('assistantCards');

    // Another service, another identity file (as "Start Local Sandbox" does).
    b = await startSandboxProcess([]);
    const otherFile = path.join(path.dirname(testEnv.machineFile), `machine-b-${Date.now()}.json`); // inside the sandbox's --work
    await b.control('POST', '/_sandbox/machines', { name: 'host-test computer B', writeTo: otherFile });
    await cfg.update('machineFile', otherFile, vscode.ConfigurationTarget.Global);
    await cfg.update('baseUrl', b.url, vscode.ConfigurationTarget.Global);
    await app.refreshState();
    await until('a client core for B', () => app.live?.key.startsWith(`${b!.url}|`));
    await app.live!.started;
    assert.equal(app.live!.core.state.kind, 'signed-out', 'B does not try A\'s sign-in');
    await signInApproved({ ...a, sb: b });

    // Back to A: its sign-in is still there and works.
    await cfg.update('machineFile', testEnv.machineFile, vscode.ConfigurationTarget.Global);
    await cfg.update('baseUrl', a.sb.url, vscode.ConfigurationTarget.Global);
    await app.refreshState();
    await until('a client core for A', () => app.live?.key.startsWith(`${a!.sb.url}|`));
    await until('A signed in again from the store', () => app.live?.core.state.kind === 'online');
    await app.live!.core.cards.refresh();
    assert.equal(app.live!.core.state.kind, 'online');
  });
});
