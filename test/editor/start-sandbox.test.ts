// "Start Local Sandbox" with this computer already set up for a real service: that identity file
// stays as it was (byte for byte), the sandbox makes one of its own, and the extension points
// baseUrl and machineFile at the sandbox. Switching back is the person's: nothing was lost.
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
    const real = { ...JSON.parse(before), baseUrl: 'https://cards.example.com' };
    fs.writeFileSync(testEnv.machineFile, JSON.stringify(real));
    const written = fs.readFileSync(testEnv.machineFile, 'utf8');
    void app.startSandbox(); // it ends on a "Sign In?" notification nobody answers here
    const url = await until('baseUrl points at the sandbox', () => {
      const u = cfg().get<string>('baseUrl');
      return u && /^http:\/\/127\.0\.0\.1:\d+$/.test(u) ? u : undefined;
    }, 30_000);
    const identity = await until('the identity file setting moved to the sandbox\'s own', () => {
      const f = cfg().get<string>('machineFile');
      return f && f !== testEnv.machineFile ? f : undefined;
    });
    assert.equal(fs.readFileSync(testEnv.machineFile, 'utf8'), written, 'the real service\'s identity file is untouched');
    assert.equal((JSON.parse(fs.readFileSync(identity, 'utf8')) as { baseUrl: string }).baseUrl, url);
  });
});
