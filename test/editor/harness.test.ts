// The harness itself: what the runner promises a host test (see README, "Extension-host tests").
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { testEnv } from './helpers/env';
import { startSandboxProcess } from './helpers/sandbox';

describe('harness', () => {
  it('opened the fresh workspace folder the runner made', () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a folder is open');
    assert.equal(fs.realpathSync(folder.uri.fsPath), fs.realpathSync(testEnv.workspace));
  });

  it('points assistantCards.machineFile at an identity file that exists', () => {
    const configured = vscode.workspace.getConfiguration('assistantCards').get<string>('machineFile');
    assert.equal(configured, testEnv.machineFile);
    const identity = JSON.parse(fs.readFileSync(testEnv.machineFile, 'utf8')) as { id: string; privateJwk: { crv: string; d?: string } };
    assert.match(identity.id, /^mch_/);
    assert.equal(identity.privateJwk.crv, 'P-256');
    assert.ok(identity.privateJwk.d);
  });

  it('starts the sandbox from a host test on port 0 and stops it', async () => {
    const sandbox = await startSandboxProcess(['--manual-clock']);
    try {
      assert.match(sandbox.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const machine = await sandbox.control<{ id: string }>('POST', '/_sandbox/machines', { name: 'harness' });
      assert.match(machine.id, /^mch_/);
    } finally {
      await sandbox.close();
    }
    await assert.rejects(fetch(`${sandbox.url}/_sandbox/machines`, { method: 'POST', body: '{}' }), 'stopped');
  });
});
