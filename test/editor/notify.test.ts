// A card's notification in the real workbench, against a sandbox: a blocking choice shows its
// options as buttons, one click answers the version it showed and the next notification offers
// Undo; the setting `off` shows nothing; offline is told once and the tree shows it above the
// cards, and both clear once the service answers again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Node } from '../../src/editor/cards-tree';
import { heard, newCard, sandboxCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';

// The notifications centre lists every notification as its toast does (toasts may not show headless).
const ITEM = '.notifications-center .notification-list-item';
const item = (text: string) => `${ITEM}:has-text(${JSON.stringify(text)})`;
const button = (text: string, label: string) => ({ selector: `${item(text)} .monaco-button:text-is(${JSON.stringify(label)})`, timeout: 60_000 });
const SIDEBAR = '#workbench\\.parts\\.sidebar';

describe('notify: answer from the notification, offline told once (extension host)', function () {
  this.timeout(240_000);
  let w: World;
  const core = () => w.app.live!.core;
  const notifier = () => w.app.live!.notifier;
  const config = () => vscode.workspace.getConfiguration('assistantCards');

  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    await signInApproved(w);
  });
  beforeEach(async () => {
    // Headless chromium cannot report focus: this is the window the person is at.
    notifier().focused = () => true;
    await vscode.commands.executeCommand('notifications.clearAll');
    await until('no card notification showing', () => !notifier().isShowing());
  });
  afterEach(async () => {
    if (w?.app.live) notifier().focused = () => vscode.window.state.focused;
    await config().update('notify', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
  });
  after(async () => {
    await w?.sb.control('DELETE', '/_sandbox/faults').catch(() => undefined);
    await unwire(w);
  });

  it('a blocking choice: its options as buttons, who asks; one click answers the version shown; Undo is offered', async () => {
    const before = notifier().shown;
    const c = await newCard(w, {
      kind: 'choice', title: 'Which database for the cache?', blocking: true,
      options: [{ id: 'pg', label: 'Postgres' }, { id: 'sq', label: 'SQLite, in a file next to the app' }, { id: 'rd', label: 'Redis' }],
    });
    await until('the notification', () => notifier().shown > before, 60_000);
    const shownVersion = core().cards.get(c.id)!.version;
    await vscode.commands.executeCommand('notifications.showList');
    const text = 'Which database for the cache?';
    await driver.waitFor(button(text, 'Postgres'));
    await driver.waitFor(button(text, 'Redis'));
    await driver.waitFor(button(text, 'SQLite, in a file next to the…'));
    assert.match(await driver.text({ selector: item(text) }), /Claude · main/, 'says who asks');
    await driver.screenshot('notify-buttons');
    await driver.click(button(text, 'Redis'));
    // A click on a notification's button closes the centre: open it again to read the next one.
    await vscode.commands.executeCommand('notifications.showList');
    // The next notification says it was answered and offers Undo for the hold.
    await driver.waitFor(button('with Redis. The assistant hears it in', 'Undo'));
    await until('the assistant heard it after the hold', async () => (await heard(w, c.id)).length === 1, 60_000);
    const [answer] = await heard(w, c.id);
    assert.deepEqual(answer!.body.choiceIds, ['rd']);
    assert.equal(answer!.body.version, shownVersion, 'the answer names the version the notification showed');
  });

  it('an approval answered from its notification, then undone from the next one', async () => {
    const before = notifier().shown;
    const c = await newCard(w, { kind: 'approval', title: 'Run the migration now?', blocking: true });
    await until('the notification', () => notifier().shown > before, 60_000);
    assert.deepEqual(notifier().lastButtons.slice(0, 3), ['Approve', 'Decline', 'Open']);
    await vscode.commands.executeCommand('notifications.showList');
    await driver.click(button('Run the migration now?', 'Approve'));
    await vscode.commands.executeCommand('notifications.showList');
    await driver.click(button('with Approve. The assistant hears it in', 'Undo'));
    await until('waiting on the person again', async () => (await sandboxCard(w, c.id)).status === 'pending', 30_000);
    assert.deepEqual(await heard(w, c.id), [], 'the undone answer was never heard');
  });

  it('more than three options, or high stakes: Open only', async () => {
    let before = notifier().shown;
    await newCard(w, { kind: 'choice', title: 'Pick a region', blocking: true, options: ['a', 'b', 'c', 'd'].map((id) => ({ id, label: `Region ${id}` })) });
    await until('the notification', () => notifier().shown > before, 60_000);
    assert.deepEqual(notifier().lastButtons, ['Open']);
    await vscode.commands.executeCommand('notifications.clearAll');
    await until('the notification dismissed', () => !notifier().isShowing());
    before = notifier().shown;
    await newCard(w, { kind: 'approval', title: 'Pay the invoice?', blocking: true, highStakes: true });
    await until('the notification', () => notifier().shown > before, 60_000);
    assert.deepEqual(notifier().lastButtons, ['Open']);
  });

  it('`off` shows nothing', async () => {
    await config().update('notify', 'off', vscode.ConfigurationTarget.Global);
    const before = notifier().shown;
    const c = await newCard(w, { kind: 'approval', title: 'Quiet, please?', blocking: true });
    await until('the card in the model', () => core().cards.get(c.id));
    assert.equal(notifier().shown, before, 'no notification');
    await vscode.commands.executeCommand('notifications.showList');
    assert.equal(await driver.count({ selector: item('Quiet, please?') }), 0);
  });

  it('offline: told once however many requests fail, a row above the cards; both clear when the service answers', async () => {
    const offline = w.app.live!.offline;
    const told = offline.told;
    await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
    await w.sb.control('POST', '/_sandbox/faults', { path: '/v1', status: 503, times: 1000 });
    try {
      await until('offline', () => core().state.kind === 'offline', 120_000);
      // More requests fail while offline: still one notification.
      const left = async () => (await w.sb.control<{ faults: { times: number }[] }>('GET', '/_sandbox/faults')).faults[0]?.times ?? 0;
      const now = await left();
      await until('more failed requests', async () => (await left()) <= now - 3, 120_000);
      assert.equal(offline.told, told + 1, 'one notification for the spell');
      await vscode.commands.executeCommand('notifications.showList');
      await driver.waitFor({ selector: item('Assistant Cards: offline'), timeout: 30_000 });
      assert.equal(await driver.count({ selector: item('Assistant Cards: offline') }), 1);
      const roots = w.app.live!.tree.getChildren() as Node[];
      assert.equal(roots[0]?.kind, 'offline', 'the offline row on top');
      assert.ok(roots.some((n) => n.kind === 'group'), 'the cards still listed');
      await driver.waitFor({ selector: `${SIDEBAR} .monaco-list-row:has-text("Offline: cards as last read")`, timeout: 30_000 });
      await vscode.commands.executeCommand('notifications.hideList');
      await driver.screenshot('offline-tree');
    } finally {
      await w.sb.control('DELETE', '/_sandbox/faults');
    }
    await until('back online', () => core().state.kind === 'online', 120_000);
    assert.notEqual((w.app.live!.tree.getChildren() as Node[])[0]?.kind, 'offline');
    await driver.waitFor({ selector: `${SIDEBAR} .monaco-list-row:has-text("Offline: cards as last read")`, state: 'detached', timeout: 30_000 });
    await vscode.commands.executeCommand('notifications.showList');
    await driver.waitFor({ selector: item('Assistant Cards: offline'), state: 'detached', timeout: 30_000 });
    assert.equal(offline.told, told + 1);
  });
});
