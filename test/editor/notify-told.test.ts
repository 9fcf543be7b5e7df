// Every card told, once (#38), in the real workbench against a sandbox, the window focused as a
// person's would be. While a card's notification shows (30 s, or until dismissed), cards that
// arrive get none of their own; when it ends, those no notification has counted yet are told in
// one notification, "N more wait", with Open Next. Under `notify: all` a card that does not block
// is counted too. On main (1423de6) such a card was never told: a blocking one only through the
// Open Next after an answer from that notification, one that does not block not at all. Every
// check reads the notifications centre (toasts may not show headless), not the notifier.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { atThisWindow, awayFromThisWindow, newCard, sandboxCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { notificationButton, notificationButtons, notificationCount, notificationListed, notificationText } from './helpers/notifications';

describe('every card told once: what arrives while a notification shows is told when it ends (#38, extension host)', function () {
  this.timeout(240_000);
  let w: World;
  const core = () => w.app.live!.core;
  const notifier = () => w.app.live!.notifier;
  const config = () => vscode.workspace.getConfiguration('assistantCards');

  const buttons = notificationButtons;
  const countOf = notificationCount;

  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    await signInApproved(w);
  });
  beforeEach(async () => {
    await atThisWindow();
    await vscode.commands.executeCommand('notifications.clearAll');
    await until('no card notification showing', () => !notifier().isShowing());
  });
  afterEach(async () => {
    await config().update('notify', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
    await awayFromThisWindow();
  });
  after(async () => {
    await unwire(w);
  });

  it('a blocking card that arrives while a notification shows: none of its own; told once when that one is dismissed, with Open Next', async () => {
    await newCard(w, { kind: 'approval', title: 'Told on its own?', blocking: true });
    await notificationListed('Told on its own?');
    // Its notification shows (its words are set): the next card arrives while it shows.
    const late = await newCard(w, { kind: 'approval', title: 'Arrived while one showed?', blocking: true });
    await until('the late card in the model', () => core().cards.get(late.id));
    assert.ok(notifier().isShowing(), 'the first still shows');
    assert.equal(await countOf('Arrived while one showed?'), 0, 'no notification of its own while the first shows');
    // The person dismisses the first: the late card is told now, once, with Open Next.
    await vscode.commands.executeCommand('notifications.clearAll');
    const told = 'Assistant Cards: 1 more blocking card waits; next: Claude · main asks: Arrived while one showed?';
    assert.deepEqual(await buttons(told), ['Open Next']);
    assert.equal(await countOf('Arrived while one showed?'), 1, 'told in one notification');
    await driver.screenshot('notify-told-when-ended');
    await driver.click(notificationButton(told, 'Open Next'));
    await until('the late card\'s panel', () => w.app.panels.get(late.id)?.isReady(), 30_000);
    assert.equal((await sandboxCard(w, late.id)).status, 'pending', 'opening answers nothing');
    // Told: its notification gone with the press, nothing left to tell, nothing shows again.
    await until('no card notification showing', () => !notifier().isShowing());
    assert.equal(await countOf('Arrived while one showed?'), 0, 'not told a second time');
  });

  it('under notify: all, a card that does not block arriving while one shows is counted, and told when that one ends by itself', async function () {
    this.timeout(300_000);
    await config().update('notify', 'all', vscode.ConfigurationTarget.Global);
    await newCard(w, { kind: 'approval', title: 'Loud one first?', blocking: true });
    await notificationListed('Loud one first?');
    const quiet = await newCard(w, { kind: 'approval', title: 'Quiet one, not blocking?' });
    await until('the quiet card in the model', () => core().cards.get(quiet.id));
    assert.equal(await countOf('Quiet one, not blocking?'), 0, 'none of its own while the first shows');
    // Not dismissed: the first notification ends after its 30 s, and the quiet card is told then.
    const told = 'Assistant Cards: 1 more card waits; next: Claude · main asks: Quiet one, not blocking?';
    await until('the quiet card told once the first ended', async () => (await countOf(told)) === 1 || undefined, 120_000, 1000);
    assert.deepEqual(await buttons(told), ['Open Next']);
    assert.equal(await countOf('Quiet one, not blocking?'), 1, 'told once');
    await driver.screenshot('notify-told-all');
  });

  it('cards counted in the notification that shows are not told again when it ends', async () => {
    const titles = ['Counted together: one?', 'Counted together: two?'];
    const made = await Promise.all(titles.map((title) => newCard(w, { kind: 'approval', title, blocking: true })));
    const shown = '1 more blocking card waits; next: Claude · main asks: Counted together';
    const text = await notificationText(shown);
    assert.match(text, /asks: Counted together: .* · 1 more blocking card waits; next: Claude · main asks: Counted together: /, text);
    // The person opens the card it shows: that notification ends, and nothing is left to tell.
    await driver.click(notificationButton(shown, 'Open'));
    const asked = made[titles.findIndex((t) => text.includes(`asks: ${t}`))]!;
    await until('its panel', () => w.app.panels.get(asked.id)?.isReady(), 30_000);
    await until('no card notification showing', () => !notifier().isShowing());
    assert.equal(await countOf('Assistant Cards: 1 more blocking card waits; next: Claude · main asks: Counted together'), 0, 'the one counted is not told a second time');
  });
});
