// The foundation suite: the extension activates in a real VS Code, its views and every
// contributed command are registered, and a signed-out person sees the welcome view.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { driver, driverAvailable } from './helpers/driver';
import { testEnv } from './helpers/env';
import { signedOutStart } from './cards-helpers';
import { until } from '../kit/until';

const EXTENSION_ID = 'assistant-cards.assistant-cards';

// The commands the manifest must contribute (the first release's set), kept here so the manifest cannot drop one.
const REQUIRED = [
  'signIn', 'signOut', 'refresh', 'openCard', 'answer', 'undo', 'writeToAssistant', 'later', 'back',
  'handOver', 'takeBack', 'openInBrowser', 'showLog', 'focusTerminal', 'startSandbox',
].map((n) => `assistantCards.${n}`);

interface Manifest {
  contributes: {
    commands: { command: string; category?: string }[];
    views: Record<string, { id: string }[]>;
  };
}

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  return ext;
}

describe('activation', () => {
  before(async () => {
    await extension().activate();
  });

  it('activates', () => {
    assert.equal(extension().isActive, true);
  });

  it('runs from this repository', () => {
    assert.equal(fs.realpathSync(extension().extensionPath), fs.realpathSync(testEnv.root));
  });

  it('contributes every required command, each in the "Assistant Cards" category', () => {
    const manifest = extension().packageJSON as Manifest;
    const ids = manifest.contributes.commands.map((c) => c.command);
    for (const id of REQUIRED) assert.ok(ids.includes(id), `manifest lacks ${id}`);
    for (const c of manifest.contributes.commands) {
      assert.match(c.command, /^assistantCards\./);
      assert.equal(c.category, 'Assistant Cards', `${c.command} category`);
    }
  });

  it('registers every contributed command', async () => {
    const manifest = extension().packageJSON as Manifest;
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], 'contributed but not registered');
  });

  it('contributes its three views in its own container, and they open', async () => {
    const manifest = extension().packageJSON as Manifest;
    assert.deepEqual(manifest.contributes.views.assistantCards?.map((v) => v.id), ['assistantCards.cards', 'assistantCards.assistants', 'assistantCards.answers']);
    // `<view>.focus` exists only for a registered view; running it opens the container.
    await vscode.commands.executeCommand('assistantCards.answers.focus');
    await vscode.commands.executeCommand('assistantCards.assistants.focus');
    await vscode.commands.executeCommand('assistantCards.cards.focus');
  });

  describe('in the workbench (Playwright)', function () {
    before(async function () {
      if (!driverAvailable()) this.skip();
      // Signed out whatever ran before: this file's tests need no earlier one (--grep runs one alone).
      await signedOutStart();
    });

    it('shows the welcome view with Sign In when signed out, and takes a screenshot', async () => {
      await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
      const sidebar = '#workbench\\.parts\\.sidebar';
      await driver.waitFor({ selector: `${sidebar} .pane-header:has-text("Cards")` });
      await driver.waitFor({ selector: `${sidebar} .pane-header:has-text("Assistants")` });
      const welcome = `${sidebar} .welcome-view-content`;
      let seen = '';
      const text = await until('the signed-out welcome view', async () => {
        seen = (await driver.texts({ selector: welcome })).join('\n');
        return /Sign in to see the cards/.test(seen) ? seen : undefined;
      }, 30_000).catch(async (e: Error) => {
        await driver.screenshot('welcome-failed').catch(() => undefined);
        throw new Error(`${e.message}; the view shows: ${JSON.stringify(seen)} (artifacts/welcome-failed.png)`);
      });
      assert.match(text, /Sign In/);
      assert.equal(await driver.count({ selector: `${welcome} a.monaco-button:has-text("Sign In"), ${welcome} .monaco-button:has-text("Sign In")` }) > 0, true, 'a Sign In button');
      const shot = await driver.screenshot('welcome');
      assert.ok(fs.statSync(shot.path).size > 10_000, 'a real screenshot');
      await driver.screenshot('welcome-sidebar', { selector: sidebar });
    });

    it('runs the disabled form of a command while signed out: it says so and acts on nothing', async () => {
      const message = '.notifications-center .notification-list-item-message';
      await vscode.commands.executeCommand('notifications.clearAll');
      try {
        await vscode.commands.executeCommand('assistantCards.nextCard');
        await vscode.commands.executeCommand('assistantCards.focusTerminal');
        await vscode.commands.executeCommand('notifications.showList');
        await driver.waitFor({ selector: `${message}:has-text("sign in first.")` });
        await driver.waitFor({ selector: `${message}:has-text("assistants of this window")` });
        assert.equal(await driver.count({ selector: `${message}:has-text("nothing waits on you")` }), 0, 'the enabled form did not run');
      } finally {
        await vscode.commands.executeCommand('notifications.clearAll');
        await vscode.commands.executeCommand('notifications.hideList');
      }
    });

    it('has its icon in the activity bar', async () => {
      const n = await driver.count({ selector: '.activitybar .action-item a[aria-label^="Assistant Cards"], .activitybar .action-label[aria-label^="Assistant Cards"]' });
      assert.ok(n > 0, 'activity bar entry');
    });
  });
});
