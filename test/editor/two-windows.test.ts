// Two windows of the same folder, each with its own extension host and this extension (the second
// opened by the runner's browser, as a person opens a second window): a card's notification comes
// only in the window the person is at, and presence is spoken by that window only. Another window
// can also be reloaded, which this one cannot (its extension host runs these tests): an open card
// panel comes back with its draft.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { awayFromThisWindow, newCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { PICK_INPUT } from './helpers/quick-pick';
import { notificationItem } from './helpers/notifications';
import { testEnv } from './helpers/env';

const SECOND = 'second';
const RELOADED = 'reloaded';
const ROW = '.quick-input-list .monaco-list-row';
const row = (page: string, text: string) => ({ selector: `${ROW}:has-text(${JSON.stringify(text)})`, page });
const WV = ['iframe.webview.ready', 'iframe#active-frame'];
const inPanel = (page: string, selector: string, timeout?: number) => ({ selector, frames: WV, page, ...(timeout ? { timeout } : {}) });

/** Another window with this extension (as in development), on `folder`, in a tab named `page`. */
async function openWindow(page: string, folder: string): Promise<void> {
  const base = testEnv.get('ASSISTANT_CARDS_TEST_VSCODE_URL')!;
  const payload = [['extensionDevelopmentPath', `vscode-remote://${new URL(base).host}${testEnv.root}`]];
  await driver.open(page, `${base}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
  await driver.waitFor({ selector: '.monaco-workbench', page, timeout: 60_000 });
}

/** In the window `page`: F1, a command by its title, Enter (no Escape first: in a card panel it closes the panel). */
async function run(page: string, command: string): Promise<void> {
  await driver.press('F1', { page });
  await driver.waitFor({ selector: PICK_INPUT, page });
  await driver.type(command, page);
  await driver.waitFor(row(page, command));
  await driver.press('Enter', { page });
}

// Both windows in `machine` scope (wire's): the user settings are one for every window, and the
// asking assistant cannot be live in a terminal of the second window (none can be opened there
// from this extension host), so in the default scope that window would hold no card to tell.
describe('two windows: the window the person is at notifies and speaks presence (Playwright)', function () {
  this.timeout(240_000);
  let w: World;
  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    await signInApproved(w);
  });
  after(async () => {
    await driver.close(SECOND).catch(() => undefined);
    await driver.close(RELOADED).catch(() => undefined);
    await awayFromThisWindow().catch(() => undefined);
    await unwire(w);
  });

  it('the second window notifies while the person is there, this one stays quiet; presence follows the person', async () => {
    await openWindow(SECOND, testEnv.workspace);
    const presence = w.app.live!.assistants.presence!;
    const read = () => w.sb.control<{ here: boolean; lastPings: { here: boolean; at: string }[] }>('GET', '/_sandbox/presence');

    // The person goes to the second window: this one stops speaking presence; the service sees
    // the person here all the same (the second window says so).
    await awayFromThisWindow();
    await driver.windowFocus(true, SECOND);
    await until('this window away', () => !presence.isHere() || undefined);
    // A "here" sent a moment after this window said it left is the second window's (it pings at
    // once on focus, then every 30 s).
    const away = Date.now();
    await until('the person here, told by the second window', async () => {
      const p = await read();
      return (p.here && p.lastPings.some((x) => x.here && Date.parse(x.at) > away + 1000)) || undefined;
    }, 90_000, 1000);

    const title = 'Asked while in the other window';
    const c = await newCard(w, { kind: 'approval', title, blocking: true });
    await until('the card in this window too', () => w.app.live!.core.cards.get(c.id));
    // Its notification in the second window (the bell opens its notifications centre).
    await driver.waitFor({ selector: '[id="status.notifications"]', page: SECOND, timeout: 60_000 });
    await until('the notification in the second window', async () => {
      if (!await driver.count({ selector: '.notifications-center.visible', page: SECOND })) await driver.click({ selector: '[id="status.notifications"]', page: SECOND });
      return (await driver.count({ selector: notificationItem(title), page: SECOND })) > 0 || undefined;
    }, 90_000, 1000);
    await driver.screenshot('two-windows-second', { page: SECOND });
    await vscode.commands.executeCommand('notifications.showList');
    assert.equal(await driver.count({ selector: notificationItem(title) }), 0, 'no notification in the window the person left');
    await vscode.commands.executeCommand('notifications.hideList');
    // Presence all along came from the second window only: this one was away the whole time.
    assert.equal(presence.isHere(), false);
    assert.equal((await read()).here, true, 'the person is here, as the second window says');
  });

  it('a card panel open in another window comes back after "Reload Window", with what was typed in it', async () => {
    await driver.close(SECOND).catch(() => undefined);
    // A window of another folder, showing every card of this computer (the person's own `machine`
    // scope: a folder's setting may narrow it, never widen it, #37), so the card is there without
    // a terminal of its own in that window.
    const folder = path.join(path.dirname(testEnv.workspace), 'reloaded-folder');
    fs.mkdirSync(folder, { recursive: true });
    await openWindow(RELOADED, folder);
    const title = 'Brought back by a reload';
    const c = await newCard(w, { kind: 'text', title });
    await until('the card in this window', () => w.app.live!.core.cards.get(c.id));
    // The person opens it there through the palette (once that window has read it) and starts an answer.
    await until('the card offered in the other window', async () => {
      await run(RELOADED, 'Assistant Cards: Open Card');
      return await driver.waitFor({ ...row(RELOADED, title), timeout: 5000 }).then(() => true, () => undefined);
    }, 90_000, 1000);
    await driver.type(title, RELOADED);
    await driver.press('Enter', { page: RELOADED });
    await driver.waitFor(inPanel(RELOADED, '#field-text', 30_000));
    assert.equal(await driver.text(inPanel(RELOADED, '#title')), title);
    await driver.fill(inPanel(RELOADED, '#field-text'), 'typed before the reload');

    // The person reloads that window as they would (the palette): its extension host starts over.
    const loads = await driver.loads(RELOADED);
    await run(RELOADED, 'Developer: Reload Window');
    await until('the window loaded again', async () => (await driver.loads(RELOADED)) > loads || undefined, 60_000, 250);
    await driver.waitFor({ selector: '.monaco-workbench', page: RELOADED, timeout: 60_000 });
    // VS Code restores the panel's tab and activates the extension for it; the serializer shows
    // the card in it again once signed in from the stored keys; the webview's state holds the draft.
    await driver.waitFor(inPanel(RELOADED, '#field-text', 120_000))
      .catch(async (e: unknown) => { await driver.screenshot('reload-not-revived', { page: RELOADED }); throw e; });
    await driver.screenshot('reload-revived-panel', { page: RELOADED });
    assert.equal(await driver.text(inPanel(RELOADED, '#title')), title);
    assert.equal(await driver.value(inPanel(RELOADED, '#field-text')), 'typed before the reload');
  });
});
