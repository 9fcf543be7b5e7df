// Restricted Mode: the window's folder is not trusted (workspace trust on). host-test.mjs runs the
// *.untrusted.test.ts files alone in a second code-server window where trust is on and nothing is
// trusted. The extension declares capabilities.untrustedWorkspaces, so it runs there: the views,
// signing in and answering a card work as in a trusted window.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, heard, newCard, signingIn, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { shortHold } from './helpers/hold';
import { openFromTree } from './helpers/card-panel-ui';
import { testEnv } from './helpers/env';

const SIDEBAR = '#workbench\\.parts\\.sidebar';
const WV = ['iframe.webview.ready', 'iframe#active-frame'];
const inPanel = (selector: string) => ({ selector, frames: WV });

describe('Restricted Mode (an untrusted folder)', function () {
  this.timeout(180_000);
  let w: World | undefined;

  before(function () {
    if (!driverAvailable()) this.skip();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await unwire(w);
  });

  it('runs in a window whose folder is not trusted', () => {
    assert.equal(vscode.workspace.isTrusted, false, 'this window is in Restricted Mode');
    assert.ok(vscode.extensions.getExtension(EXTENSION_ID), 'the extension is enabled there');
  });

  it('shows the views, signs in from the welcome view, and answers a card', async () => {
    w = await wire();
    await shortHold(w.sb); // about Restricted Mode, not the hold (cards and ui-cards wait the real 5 s)
    const core = () => w!.app.live!.core;
    await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
    await driver.waitFor({ selector: `${SIDEBAR} .welcome-view-content:has-text("Sign in to see the cards")` });
    await driver.click({ selector: `${SIDEBAR} .welcome-view-content .monaco-button:has-text("Sign In")` });
    const s = await signingIn(w);
    await w.sb.control('POST', '/_sandbox/device/approve', { user_code: s.userCode });
    await until('signed in', () => core().state.kind === 'online');
    core().feed.setFocused(true);

    const c = await newCard(w, { kind: 'choice', title: 'Trust this folder?', options: [{ id: 'y', label: 'Yes' }, { id: 'n', label: 'No' }] });
    // From its row, as a person opens it (a click that lands while the tree redraws is clicked again).
    await openFromTree(w, c.id, 'Trust this folder?');
    await driver.click(inPanel('label.option:has-text("No")'));
    await driver.click(inPanel('#answer'));
    const h = await until('the assistant to hear the answer', async () => { const x = await heard(w!, c.id); return x.length ? x : undefined; });
    assert.deepEqual(h[0]!.body.choiceIds, ['n']);
    await driver.screenshot('restricted-mode-answered');
  });

  it('does not follow the folder\'s own assistantCards.presence (restrictedConfigurations)', async () => {
    const file = path.join(testEnv.workspace, '.vscode', 'settings.json');
    const before = fs.readFileSync(file, 'utf8');
    const config = () => vscode.workspace.getConfiguration('assistantCards');
    try {
      // scope is followed from the folder even here: it shows when VS Code has read the file.
      fs.writeFileSync(file, JSON.stringify({ 'assistantCards.scope': 'workspace', 'assistantCards.presence': false }));
      await until('the folder settings read', () => config().inspect('scope')?.workspaceValue === 'workspace');
      assert.equal(config().get('presence'), true, 'the folder cannot turn presence off in Restricted Mode');
    } finally {
      fs.writeFileSync(file, before);
      await until('the folder settings read again', () => config().inspect('scope')?.workspaceValue === undefined);
    }
  });
});
