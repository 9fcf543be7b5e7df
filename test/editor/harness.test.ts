// The harness itself: what the runner promises a host test (see README, "Extension-host tests").
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { testEnv } from './helpers/env';
import { startSandboxProcess } from './helpers/sandbox';
import { driver, driverAvailable } from './helpers/driver';
import { keyboardInBox, PICK_INPUT } from './helpers/quick-pick';
import { until } from '../kit/until';

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

  // The one way the tests give the keyboard to a quick input (helpers/quick-pick.ts): a box that
  // lost it to a view is clicked into; a box that closed is opened again.
  describe('keyboardInBox', () => {
    const focusedBoxes = () => driver.count({ selector: `${PICK_INPUT}:focus` });
    afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));

    it('a pick that shows while a view has the keyboard gets it back by a click', async function () {
      if (!driverAvailable()) this.skip();
      const pick = vscode.window.createQuickPick();
      pick.ignoreFocusOut = true;
      pick.items = [{ label: 'one' }];
      pick.show();
      try {
        await driver.waitFor({ selector: `${PICK_INPUT}:focus` });
        await vscode.commands.executeCommand('workbench.action.focusSideBar');
        await until('the keyboard in the side bar, the pick still showing', async () => (await focusedBoxes()) === 0 && (await driver.keyboardAt()).quickInput?.shown === true || undefined, 15_000);
        await keyboardInBox('the harness pick');
        assert.equal(await focusedBoxes(), 1, 'the box has the keyboard');
      } finally {
        pick.dispose();
      }
    });

    it('an input box that closed when the keyboard left is opened again', async function () {
      if (!driverAvailable()) this.skip();
      const boxes: vscode.InputBox[] = [];
      const open = () => { const box = vscode.window.createInputBox(); boxes.push(box); box.show(); };
      try {
        open();
        await driver.waitFor({ selector: `${PICK_INPUT}:focus` });
        await vscode.commands.executeCommand('workbench.action.focusSideBar');
        await until('the box closed', async () => (await driver.keyboardAt()).quickInput?.shown !== true || undefined, 15_000);
        await keyboardInBox('the harness input box', open);
        assert.equal(await focusedBoxes(), 1, 'the box has the keyboard');
        assert.equal(boxes.length, 2, 'opened once more');
      } finally {
        for (const b of boxes) b.dispose();
      }
    });
  });
});
