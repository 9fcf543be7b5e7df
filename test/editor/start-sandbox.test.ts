// "Start Local Sandbox" with this computer already set up for a real service: that identity file
// stays as it was (byte for byte), the sandbox makes one of its own, and the extension points
// machineFile at it. The address is in that file only (never in settings), and it goes when the
// sandbox stops: no dead port is left for the next start. Switching back is the person's.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { theApp, until } from './cards-helpers';
import { testEnv } from './helpers/env';

describe('Start Local Sandbox next to a real service', function () {
  this.timeout(60_000);
  const cfg = () => vscode.workspace.getConfiguration('assistantCards');
  let before: string | undefined;

  after(async () => {
    const app = await theApp();
    app.launcher.dispose();
    if (before !== undefined) fs.writeFileSync(testEnv.machineFile, before);
    await cfg().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('machineFile', testEnv.machineFile, vscode.ConfigurationTarget.Global);
    await app.refreshState();
  });

  it('leaves the real service\'s identity file alone and uses the sandbox\'s own', async () => {
    const app = await theApp();
    before = fs.readFileSync(testEnv.machineFile, 'utf8');
    // A real service's identity: no sandbox mark.
    const real: Record<string, unknown> = { ...(JSON.parse(before) as Record<string, unknown>), baseUrl: 'https://cards.example.com' };
    delete real.madeBy;
    fs.writeFileSync(testEnv.machineFile, JSON.stringify(real));
    const written = fs.readFileSync(testEnv.machineFile, 'utf8');
    // An earlier sandbox's address in the user settings would override the identity file's.
    await cfg().update('baseUrl', 'http://127.0.0.1:1', vscode.ConfigurationTarget.Global);
    void app.startSandbox(); // it ends on a "Sign In?" notification nobody answers here
    const identity = await until('the identity file setting moved to the sandbox\'s own', () => {
      const f = cfg().get<string>('machineFile');
      return f && f !== testEnv.machineFile ? f : undefined;
    }, 30_000);
    const url = await until('the sandbox runs', () => app.launcher.running);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    await until('a client core for the sandbox, from the identity file', () => app.live?.key.startsWith(`${url}|`));
    assert.equal(cfg().inspect<string>('baseUrl')?.globalValue, undefined, 'no address in the settings');
    assert.equal(fs.readFileSync(testEnv.machineFile, 'utf8'), written, 'the real service\'s identity file is untouched');
    const made = JSON.parse(fs.readFileSync(identity, 'utf8')) as { baseUrl: string; madeBy?: string };
    assert.equal(made.baseUrl, url);
    assert.equal(made.madeBy, 'sandbox');
    // The sandbox stops (the window closes): its address goes with it.
    app.launcher.dispose();
    await until('the identity file names no address', () => (JSON.parse(fs.readFileSync(identity, 'utf8')) as { baseUrl: string }).baseUrl === '' || undefined);
    await app.refreshState();
    await until('not set up: nothing is sent to the dead port', () => app.live === undefined || undefined);
  });
});
