// Two windows of the same folder, each with its own extension host and this extension (the second
// opened by the runner's browser, as a person opens a second window): a card's notification comes
// only in the window the person is at, and presence is spoken by that window only.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { awayFromThisWindow, newCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { testEnv } from './helpers/env';

const SECOND = 'second';
const ITEM = '.notifications-center .notification-list-item';
const item = (text: string) => `${ITEM}:has-text(${JSON.stringify(text)})`;

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
    await awayFromThisWindow().catch(() => undefined);
    await unwire(w);
  });

  it('the second window notifies while the person is there, this one stays quiet; presence follows the person', async () => {
    const base = testEnv.get('ASSISTANT_CARDS_TEST_VSCODE_URL')!;
    const payload = [['extensionDevelopmentPath', `vscode-remote://${new URL(base).host}${testEnv.root}`]];
    await driver.open(SECOND, `${base}/?folder=${encodeURIComponent(testEnv.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    await driver.waitFor({ selector: '.monaco-workbench', page: SECOND, timeout: 60_000 });
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
      return (await driver.count({ selector: item(title), page: SECOND })) > 0 || undefined;
    }, 90_000, 1000);
    await driver.screenshot('two-windows-second', { page: SECOND });
    await vscode.commands.executeCommand('notifications.showList');
    assert.equal(await driver.count({ selector: item(title) }), 0, 'no notification in the window the person left');
    await vscode.commands.executeCommand('notifications.hideList');
    // Presence all along came from the second window only: this one was away the whole time.
    assert.equal(presence.isHere(), false);
    assert.equal((await read()).here, true, 'the person is here, as the second window says');
  });
});
