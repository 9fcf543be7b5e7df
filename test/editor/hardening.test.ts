// Hardening of the editor side, in the real workbench: card text in a notification is no command
// link; an action command called with a bare card id acts on nothing; keys that reach the panel
// the moment it gets focus answer nothing; a command in the environment is never typed into a
// terminal.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { openDemoTerminals } from '../../src/editor/assistants/demo-terminals';
import { atThisWindow, awayFromThisWindow, newCard, sandboxCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { heardOnce } from './helpers/card-panel-ui';
import { shortHold } from './helpers/hold';
import { testEnv } from './helpers/env';
import { intoWorkspaceScope } from './helpers/workspace-scope';

const WV = ['iframe.webview.ready', 'iframe#active-frame'];
const inPanel = (selector: string, timeout?: number) => ({ selector, frames: WV, ...(timeout ? { timeout } : {}) });
// The notifications centre lists the same message as its toast (toasts may not show headless).
const MESSAGE = '.notifications-center .notification-list-item-message';

describe('hardening: the editor (extension host)', function () {
  this.timeout(240_000);
  let w: World;
  /** The default scope a person gets (workspace): a live session of the card's assistant in this window's terminal. */
  let workspaceScope: vscode.Disposable | undefined;
  const core = () => w.app.live!.core;

  before(async () => {
    w = await wire();
    await shortHold(w.sb); // no test here is about the hold (cards and ui-cards wait the real 5 s)
    await signInApproved(w);
    workspaceScope = await intoWorkspaceScope(w);
  });
  after(async () => {
    workspaceScope?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
    await unwire(w);
  });

  it('a card title carrying a command link shows in its notification as text: no anchor, clicking it runs nothing', async function () {
    if (!driverAvailable()) this.skip();
    // What the outside review sent (under the notification's 100-character cut, so the link is
    // whole): clicked, it types `id>pwned` into the active terminal, whose
    // folder is the workspace.
    const marker = path.join(testEnv.workspace, 'pwned');
    fs.rmSync(marker, { force: true });
    const probe = vscode.window.createTerminal({ name: 'hardening probe', cwd: testEnv.workspace });
    probe.show(true);
    await probe.processId; // its shell runs
    const title = 'Deploy? [Open card](command:workbench.action.terminal.sendSequence?{"text":"id>pwned\\r"})';
    assert.ok(title.length < 100, 'whole under the notification\'s cut');
    await atThisWindow();
    try {
      await vscode.commands.executeCommand('notifications.clearAll');
      const c = await newCard(w, { kind: 'approval', title, blocking: true });
      // The centre can close again while the window settles after the file before (seen once the
      // hand-over tests ran on a short hold): open it until the notification is listed there.
      await until('the notification listed in the centre', async () => {
        await vscode.commands.executeCommand('notifications.showList');
        return (await driver.count({ selector: `${MESSAGE}:has-text("Deploy?")` })) > 0 || undefined;
      }, 60_000, 500);
      await driver.screenshot('hardening-notification-link');
      assert.equal(await driver.count({ selector: `${MESSAGE} a` }), 0, 'no anchor in the notification');
      assert.ok((await driver.text({ selector: `${MESSAGE}:has-text("Deploy?")` })).includes('[Open card]'), 'the card\'s words are shown as written');
      await driver.click({ selector: `${MESSAGE}:has-text("Deploy?")` });
      // A line typed into the same terminal after the click: once the shell ran it, a sequence the
      // click had sent (before it, in the terminal's order) would have run too.
      const after = path.join(testEnv.workspace, 'after-click');
      fs.rmSync(after, { force: true });
      probe.sendText(`echo ran > ${JSON.stringify(after)}`);
      await until('the shell ran the line typed after the click', () => fs.existsSync(after), 30_000);
      fs.rmSync(after, { force: true });
      assert.equal(fs.existsSync(marker), false, 'the terminal received nothing');
      assert.equal((await sandboxCard(w, c.id)).status, 'pending');
    } finally {
      await awayFromThisWindow();
      fs.rmSync(marker, { force: true });
      probe.dispose();
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('notifications.hideList');
    }
  });

  it('an action command with a bare card id (or a look-alike node) acts on nothing and opens the card; the tree\'s own node acts', async () => {
    const hook = await w.sb.control<{ id: string; url: string }>('POST', '/_sandbox/webhooks', { name: 'Builds', area: { id: 'prj_ci', name: 'CI' } });
    const notice = await (await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Build broke', severity: 'error', dedupeKey: 'hardening' }) })).json() as { cardId: string };
    await until('the notice in the model', () => core().cards.get(notice.cardId));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('assistantCards.gotIt', notice.cardId);
    await vscode.commands.executeCommand('assistantCards.gotIt', { kind: 'card', id: notice.cardId });
    await vscode.commands.executeCommand('assistantCards.later', notice.cardId);
    assert.equal((await sandboxCard(w, notice.cardId)).status, 'pending', 'the card is as it was');
    await until('the card opened instead', () => w.app.panels.get(notice.cardId));
    // What the tree's context menu passes when the person chooses "Got it" there.
    const node = w.app.live!.tree.nodeOf(notice.cardId);
    assert.ok(node);
    await vscode.commands.executeCommand('assistantCards.gotIt', node);
    await until('closed by the person\'s press', async () => (await sandboxCard(w, notice.cardId)).status !== 'pending');
    w.app.panels.get(notice.cardId)?.dispose();
  });

  it('keys reaching the panel the moment it gets focus answer nothing; the same keys a moment later answer once', async function () {
    if (!driverAvailable()) this.skip();
    const c = await newCard(w, { kind: 'choice', title: 'Which region?', options: [{ id: 'eu', label: 'Europe' }, { id: 'us', label: 'America' }] });
    await until('the card in the model', () => core().cards.get(c.id));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    w.app.openCard(c.id);
    await until('its panel', () => w.app.panels.get(c.id)?.isReady(), 90_000);
    await driver.waitFor(inPanel('#title', 60_000));
    // The person is typing elsewhere; the panel gets focus and their `1`, Enter arrive at once.
    await vscode.commands.executeCommand('workbench.action.focusSideBar');
    await until('the panel lost the focus', async () => (await driver.count({ selector: '.part.sidebar:focus-within' })) > 0 || undefined, 15_000);
    // `1` and Enter typed by the runner the moment the click gave the panel focus (two more
    // round trips from here could take longer than the quiet moment on a busy machine).
    await driver.click({ ...inPanel('#title'), thenType: '1\n' });
    // The panel's quiet moment over: the keys typed in it were handled (dropped) before.
    await driver.waitFor({ ...inPanel('body[data-keys="ready"]', 15_000), state: 'attached' });
    assert.equal(await driver.count(inPanel('.option.chosen')), 0, 'the key picked nothing');
    assert.equal((await sandboxCard(w, c.id)).status, 'pending', 'Enter answered nothing');
    // Now focused for a while: the same keys, typed into the focused panel, are the person's.
    await driver.type('1');
    await driver.waitFor(inPanel('.option.chosen', 15_000));
    await driver.type('\n');
    // Answered once, as the assistant heard it. Not the countdown: it shows for the 5 s hold only,
    // and at a load of 25 the hold had run out before a look found it (a busy run of ffc1a03).
    const h = await heardOnce(w, c.id);
    assert.deepEqual(h.body.choiceIds, ['eu']);
    w.app.panels.get(c.id)?.dispose();
  });

  it('Enter held on a tree row opens the card and answers nothing, however long it is held', async function () {
    if (!driverAvailable()) this.skip();
    // A notice: Enter in its panel is Got it, the one answer a single key makes.
    const hook = await w.sb.control<{ id: string; url: string }>('POST', '/_sandbox/webhooks', { name: 'Held key', area: { id: 'prj_held', name: 'Held' } });
    const notice = await (await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Held Enter notice', severity: 'warning', dedupeKey: 'held-enter' }) })).json() as { cardId: string };
    await until('the notice in the model', () => core().cards.get(notice.cardId));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    try {
      // The row has the keyboard; the person holds Enter: the row opens the card, the panel takes
      // the focus, and the key's repeats keep arriving there well past the quiet moment.
      const tree = w.app.live!.tree;
      await tree.view.reveal(tree.nodeOf(notice.cardId)!, { select: true, focus: true });
      await driver.hold('Enter', 3_000);
      await until('its panel', () => w.app.panels.get(notice.cardId)?.isReady(), 30_000);
      // Ready only a quiet moment after the last repeat: every repeat was handled (dropped) before.
      await driver.waitFor({ ...inPanel('body[data-keys="ready"]', 15_000), state: 'attached' });
      assert.equal(await driver.count(inPanel('#countdown')), 0, 'no answer shown');
      assert.equal((await sandboxCard(w, notice.cardId)).status, 'pending', 'a held Enter answered nothing');
      // Pressed once, on purpose, the same key closes the notice.
      await driver.click(inPanel('#title'));
      await driver.waitFor({ ...inPanel('body[data-keys="ready"]'), state: 'attached' });
      await driver.press('Enter');
      await until('closed by the person\'s press', async () => (await sandboxCard(w, notice.cardId)).status !== 'pending', 30_000);
    } finally {
      w.app.panels.get(notice.cardId)?.dispose();
    }
  });

  it('demo terminals: a command in the environment is never typed into a terminal', async () => {
    const marker = path.join(os.tmpdir(), `assistant-cards-demo-pwned-${process.pid}-${Date.now()}`);
    const name = 'demo assistant: hostile';
    // The variable as it was before: terminals with commands, and a request with one tucked in.
    const openedNames: string[] = [];
    const listening = vscode.window.onDidOpenTerminal((t) => openedNames.push(t.name));
    let barrier: vscode.Terminal | undefined;
    try {
      for (const raw of [
        JSON.stringify([{ name, command: `touch ${marker}` }]),
        JSON.stringify({ baseUrl: `http://127.0.0.1:1; touch ${marker}`, machineFile: '/tmp/m.json', assistants: ['hostile'], command: `touch ${marker}` }),
      ]) {
        const opened = openDemoTerminals(w.app.log, raw, { extensionPath: vscode.extensions.getExtension('assistant-cards.assistant-cards')!.extensionPath });
        assert.equal(opened, 0, raw);
      }
      // A terminal opened after the calls: once its opening is heard, any the calls opened was heard before it.
      barrier = vscode.window.createTerminal({ name: 'hardening barrier' });
      await until('the barrier terminal opened', () => openedNames.includes('hardening barrier'), 30_000);
      assert.deepEqual(openedNames, ['hardening barrier'], 'no terminal opened by the calls');
      assert.equal(vscode.window.terminals.some((t) => t.name === name), false, 'no terminal opened');
      assert.equal(fs.existsSync(marker), false, 'nothing ran');
    } finally {
      listening.dispose();
      barrier?.dispose();
      for (const t of vscode.window.terminals) if (t.name === name) t.dispose();
      fs.rmSync(marker, { force: true });
    }
  });
});
