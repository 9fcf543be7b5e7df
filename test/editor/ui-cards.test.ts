// The cards, sign-in and answering through the workbench, as a person would (Playwright under
// code-server), in the default scope (the asking assistant live in a terminal of this window): sign in with the
// device code allowed on the sandbox's approval page in a second tab, see a card arrive, open it,
// pick and answer, watch the undo countdown, and check the assistant heard it after the hold.
// Also undo, Later, hand-over, a high-stakes card, a version conflict and a hostile card.
// Screenshots of each screen go to artifacts/ui-*.png.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { heard, newCard, sandboxCard, signingIn, unwire, until, wire, type World, signInStateFor } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { holdFeedBack, openFromTree } from './helpers/card-panel-ui';
import { typeInPalette, typeInPick } from './helpers/quick-pick';
import { notificationItem } from './helpers/notifications';
import { holdEnd, pastOnSandbox, realHold, shortHold } from './helpers/hold';
import { testEnv } from './helpers/env';
import { intoWorkspaceScope } from './helpers/workspace-scope';

const SIDEBAR = '#workbench\\.parts\\.sidebar';
/** The card panel's document: the webview's outer iframe, then its content frame. */
const WV = ['iframe.webview.ready', 'iframe#active-frame'];

describe('cards in the workbench (Playwright)', function () {
  this.timeout(180_000);
  let w: World | undefined;

  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    // The tests read the Cards view's rows: shown here, not left to whichever test ran first
    // (run alone, a test found the Explorer in the side bar).
    await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
  });
  /** The default scope a person gets (workspace): the card's assistant live in this window's terminal, once signed in. */
  let workspaceScope: vscode.Disposable | undefined;
  // Any one test runs alone: the sign-in test starts signed out, every other one signed in.
  beforeEach(async function () {
    await signInStateFor(w!, this.currentTest?.title, /^signs in with the device code/);
    if (!workspaceScope && w!.app.live?.core.state.kind === 'online') workspaceScope = await intoWorkspaceScope(w!);
  });
  // A test that asked for a short hold leaves the real one to the next.
  afterEach(async () => { if (w) await realHold(w.sb); });
  after(async () => {
    workspaceScope?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await unwire(w);
  });

  const app = () => w!.app;
  const core = () => app().live!.core;
  const inPanel = (selector: string) => ({ selector, frames: WV });
  /** A card's row in the tree; the tree may take a while when the core paces its reads. */
  const row = (title: string) => ({ selector: `${SIDEBAR} .monaco-list-row:has-text(${JSON.stringify(title)})`, timeout: 60_000 });

  /** Opens the card's panel by clicking its row, alone in the editor (a stray panel closed: the shared helper). */
  const openOnly = (cardId: string, title: string): Promise<void> => openFromTree(w!, cardId, title);

  it('signs in with the device code, allowed on the approval page in a second tab', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
    await driver.waitFor({ selector: `${SIDEBAR} .welcome-view-content:has-text("Sign in to see the cards")` });
    await driver.screenshot('ui-01-signed-out');
    await driver.click({ selector: `${SIDEBAR} .welcome-view-content .monaco-button:has-text("Sign In")` });
    const s = await signingIn(w!);
    // The status bar and the progress notification carry the code. The notification is read in
    // the notifications centre, which lists every one; its toast may not show (none does while the
    // centre is open, and after other files ran in this window one did not within 15 s).
    await driver.waitFor({ selector: `#workbench\\.parts\\.statusbar :text("code ${s.userCode}")` });
    await vscode.commands.executeCommand('notifications.showList');
    await driver.waitFor({ selector: notificationItem(s.userCode) });
    await driver.screenshot('ui-02-device-code');
    await vscode.commands.executeCommand('notifications.hideList');
    await driver.open('approval', s.verificationUriComplete ?? s.verificationUri);
    await driver.waitFor({ selector: '#allow', page: 'approval' });
    await driver.screenshot('ui-03-approval-page', { page: 'approval' });
    await driver.click({ selector: '#allow', page: 'approval' });
    await until('signed in', () => core().state.kind === 'online');
    await driver.close('approval');
    // Headless chromium never reports focus; a person here would have focused this window.
    core().feed.setFocused(true);
    await driver.waitFor({ selector: `${SIDEBAR} .welcome-view-content:has-text("Nothing waits on you")`, timeout: 30_000 });
    await driver.screenshot('ui-03b-signed-in-no-cards');
    assert.match(app().status.text, /\$\(bell/);
  });

  it('shows a new card in the tree, opens it, answers with the countdown, and the assistant hears it after the hold', async () => {
    // The real 5 s hold: the countdown a person sees, answered in the panel.
    const c = await newCard(w!, { kind: 'choice', title: 'Which database?', summary: 'The service needs a store for sessions.', options: [{ id: 'pg', label: 'Postgres' }, { id: 'sq', label: 'SQLite' }], recommendedIds: ['pg'], blocking: true, urgency: 'today' });
    await driver.waitFor(row('Which database?'));
    await until('the status bar count', () => /\$\(bell-dot\) \d+/.test(app().status.text));
    // The item the workbench draws (named by its spoken words) shows the model's count, nothing else.
    const waiting = core().cards.counts().waiting;
    await driver.waitFor({ selector: `#workbench\\.parts\\.statusbar [aria-label^="Assistant Cards: ${waiting} card"]:text-is("${waiting}")` });
    await driver.screenshot('ui-04-tree-with-card');
    await openOnly(c.id, 'Which database?');
    await driver.screenshot('ui-05-card-panel');
    await driver.click(inPanel('label.option:has-text("Postgres")'));
    await driver.click(inPanel('#answer'));
    const countdown = await driver.text(inPanel('#countdown')); // one read that waits: it shows for the hold only
    assert.match(countdown, /hears it in [1-5] s/);
    await driver.screenshot('ui-06-undo-countdown');
    const h = await until('the assistant to hear the answer', async () => { const x = await heard(w!, c.id); return x.length ? x : undefined; });
    assert.deepEqual(h[0]!.body.choiceIds, ['pg']);
    await driver.waitFor(inPanel('.notice:has-text("has heard")'));
    await driver.screenshot('ui-07-heard');
  });

  it('undo with the keyboard: 1 picks, Enter answers, U undoes', async () => {
    const c = await newCard(w!, { kind: 'choice', title: 'Keep the cache?', options: [{ id: 'y', label: 'Keep it' }, { id: 'n', label: 'Drop it' }] });
    await driver.waitFor(row('Keep the cache?'));
    await openOnly(c.id, 'Keep the cache?');
    // Keys wait a moment after the card shows and the panel gets focus (ANSWER_KEYS_QUIET_MS):
    // the panel's body says when they count again.
    await driver.click(inPanel('#title'));
    await driver.waitFor({ ...inPanel('body[data-keys="ready"]'), state: 'attached' });
    await driver.type('1');
    await driver.waitFor(inPanel('label.option.chosen:has-text("Keep it")'));
    await driver.type('\n');
    await driver.waitFor(inPanel('#countdown'));
    // The real 5 s hold: a person's U lands inside it.
    const end = await holdEnd(w!.sb, c.id);
    // U once Undo is on offer: the answered result is shown and no press is on its way.
    await driver.waitFor(inPanel('button[data-key="undo"]:enabled'));
    await driver.type('u');
    await driver.waitFor(inPanel('.notice:has-text("Undone")'));
    await driver.screenshot('ui-08-undone');
    assert.equal((await sandboxCard(w!, c.id)).status, 'pending');
    // Past the moment the answer would have been heard (the hold the sandbox gave it), it still is not.
    await pastOnSandbox(w!.sb, end);
    assert.deepEqual(await heard(w!, c.id), [], 'an undone answer is never heard');
  });

  it('Later, then Back', async () => {
    const c = await newCard(w!, { kind: 'text', title: 'Rename the module?' });
    await driver.waitFor(row('Rename the module?'));
    await openOnly(c.id, 'Rename the module?');
    await driver.click(inPanel('button:has-text("In 1 hour")'));
    await driver.waitFor(inPanel('button:has-text("Back now")'));
    assert.equal((await sandboxCard(w!, c.id)).status, 'snoozed');
    await driver.screenshot('ui-09-later');
    await driver.click(inPanel('button:has-text("Back now")'));
    await until('back in the stack', async () => (await sandboxCard(w!, c.id)).status === 'pending');
  });

  it('hands over to another assistant (loop) and takes it back', async () => {
    const helper = await w!.sb.control<{ id: string }>('POST', '/_sandbox/assistants', { name: 'Codex helper', app: 'codex', machineId: w!.machineId });
    await w!.sb.control('POST', '/_sandbox/agents', { assistantId: helper.id, name: 'reviewer' });
    const c = await newCard(w!, { kind: 'text', title: 'Review the migration' });
    await driver.waitFor(row('Review the migration'));
    await openOnly(c.id, 'Review the migration');
    await driver.click(inPanel('button:has-text("Hand over")'));
    await driver.waitFor(inPanel('select[data-key="handover-assistant"]'));
    // Pick the helper: move the selection until its option is chosen.
    for (let i = 0; i < 10; i++) {
      const text = await driver.text(inPanel('select[data-key="handover-assistant"] option:checked'));
      if (text.startsWith('Codex helper')) break;
      await driver.press('ArrowDown', inPanel('select[data-key="handover-assistant"]'));
    }
    await driver.press('ArrowDown', inPanel('select[data-key="handover-mode"]'));
    await driver.fill(inPanel('input[data-key="handover-note"]'), 'check the down migration');
    await driver.screenshot('ui-10-hand-over');
    await driver.click(inPanel('button[data-key="handover-send"]'));
    await until('delegated', async () => (await sandboxCard(w!, c.id)).status === 'delegated');
    await driver.waitFor(inPanel('button:has-text("Take back")'));
    await driver.screenshot('ui-11-with-helper');
    await driver.click(inPanel('button:has-text("Take back")'));
    await until('taken back', async () => (await sandboxCard(w!, c.id)).status === 'pending');
  });

  it('a high-stakes card: every action off, Open in browser offered', async () => {
    const c = await newCard(w!, { kind: 'approval', title: 'Pay the cloud invoice?', highStakes: true, summary: 'USD 1,240.00 to Example Cloud.' });
    await driver.waitFor(row('Pay the cloud invoice?'));
    await openOnly(c.id, 'Pay the cloud invoice?');
    await driver.waitFor(inPanel('.banner.stakes button:has-text("Open in browser")'));
    assert.equal(await driver.count(inPanel('button[data-key="approve"]:disabled')), 1);
    assert.equal(await driver.count(inPanel('button[data-key="later-1h"]:disabled')), 1);
    await driver.screenshot('ui-12-high-stakes');
  });

  it('a version conflict: nothing resent; the new version is shown and asked again', async function () {
    this.timeout(240_000);
    const hook = await w!.sb.control<{ id: string; url: string }>('POST', '/_sandbox/webhooks', { name: 'Uptime', area: { id: 'prj_web', name: 'Web' } });
    const send = (body: unknown) => fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const { cardId } = await (await send({ title: 'Checkout is down', severity: 'critical', dedupeKey: 'co', url: 'https://status.example.com/checkout' })).json() as { cardId: string };
    await driver.waitFor(row('Checkout is down'));
    await openOnly(cardId, 'Checkout is down');
    await driver.screenshot('ui-13a-notice');
    // Hold the change feed back, so the person presses before the repeat reaches this window.
    await holdFeedBack(w!);
    await send({ title: 'Checkout is down', severity: 'critical', dedupeKey: 'co' });
    await driver.click(inPanel('button[data-key="gotit"]'));
    await driver.waitFor(inPanel('.banner.changed:has-text("changed after you saw it")'));
    await driver.waitFor(inPanel('p:has-text("seen 2 times")'));
    await driver.screenshot('ui-13b-version-conflict');
    assert.equal((await sandboxCard(w!, cardId)).status, 'pending', 'nothing was answered');
    await w!.sb.control('DELETE', '/_sandbox/faults');
  });

  it('a hostile card renders as text: no script, no javascript: link, a 100 KB title kept in bounds', async () => {
    const title = `<script>document.body.dataset.pwned='1'</script><img src=x onerror="document.body.dataset.pwned='2'"> ${'A'.repeat(100_000)}`;
    const c = await newCard(w!, {
      kind: 'choice', title, summary: 'Click <a href="javascript:alert(1)">here</a>\u202Egnp.exe',
      options: [{ id: 'x', label: '<b onclick="alert(1)">bold?</b>' }, { id: 'y', label: 'javascript:alert(1)' }],
    });
    await until('the hostile card', () => core().cards.get(c.id));
    app().openCard(c.id);
    await until('its panel', () => app().panels.get(c.id)?.isReady());
    await vscode.commands.executeCommand('workbench.action.closeOtherEditors');
    await driver.waitFor(inPanel('#title'));
    const shownTitle = await driver.text(inPanel('#title'));
    assert.ok(shownTitle.startsWith("<script>document.body.dataset.pwned='1'</script>"), 'the title is shown as text');
    assert.equal(await driver.count(inPanel('#root script')), 0, 'no script element from the card');
    assert.equal(await driver.count(inPanel('#root img')), 0, 'no image element from the card');
    assert.equal(await driver.count(inPanel('#root a[href]')), 0, 'no link element from the card');
    assert.equal(await driver.count(inPanel('body[data-pwned]')), 0, 'nothing ran');
    assert.ok((await driver.text(inPanel('.option:has-text("bold?")'))).includes('<b onclick="alert(1)">bold?</b>'));
    assert.match(await driver.text(inPanel('.summary')), /\[U\+202E\]gnp\.exe/, 'a direction override is shown, not obeyed');
    await driver.screenshot('ui-14-hostile-card');
    const row = tree().getTreeItem({ kind: 'card', id: c.id });
    assert.ok(String(row.label).length <= 120, 'the tree label is bounded');
  });

  it('works without the mouse: the palette answers a card through quick picks', async () => {
    await shortHold(w!.sb); // about the keyboard path, not the hold
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const c = await newCard(w!, { kind: 'choice', title: 'Palette question', options: [{ id: 'red', label: 'Red' }, { id: 'blue', label: 'Blue' }] });
    await until('the card', () => core().cards.get(c.id));
    await typeInPalette('Assistant Cards: Answer');
    await driver.waitFor({ selector: '.quick-input-list .monaco-list-row:has-text("Assistant Cards: Answer")' });
    await driver.press('Enter');
    await typeInPick('Palette question');
    await driver.screenshot('ui-15a-palette-pick-card');
    await driver.press('Enter');
    await typeInPick('2. Blue', 'Blue');
    await driver.screenshot('ui-15b-palette-pick-option');
    await driver.press('Enter');
    const h = await until('the assistant to hear the palette answer', async () => { const x = await heard(w!, c.id); return x.length ? x : undefined; });
    assert.deepEqual(h[0]!.body.choiceIds, ['blue']);
  });

  it('the palette\'s filter offers the agents; filtering by one shows its cards only (through the service)', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const other = await w!.sb.control<{ id: string }>('POST', '/_sandbox/agents', { assistantId: w!.assistantId, name: 'palette-agent' });
    const theirs = await newCard(w!, { kind: 'approval', title: 'Asked of the palette agent' }, other.id);
    await until('the card', () => core().cards.get(theirs.id));
    await core().assistants.refresh();
    await until('the agent is known', () => core().assistants.list().some((a) => a.agents.some((g) => g.id === other.id)));
    try {
      await typeInPalette('Assistant Cards: Filter Cards');
      await driver.waitFor({ selector: '.quick-input-list .monaco-list-row:has-text("Assistant Cards: Filter Cards")' });
      await driver.press('Enter');
      // The agent is offered by name, with its assistant, among the filter's rows.
      await typeInPick('palette-agent (Claude)', 'palette-agent');
      await driver.screenshot('ui-15c-palette-filter');
      // Tick the agent's row (the pick takes many), then OK: the tree's filter is what was picked.
      await driver.click({ selector: '.quick-input-list .monaco-list-row:has-text("palette-agent (Claude)")' });
      await driver.waitFor({ selector: '.quick-input-list .monaco-list-row[aria-checked="true"]:has-text("palette-agent (Claude)")' });
      await driver.press('Enter');
      await until('the picked filter', () => JSON.stringify(tree().getFilter()) === JSON.stringify({ agents: [other.id] }) || undefined);
      await until('only the agent\'s card', () => {
        const ids = tree().visible('pending').map((c) => c.id);
        return ids.length === 1 && ids[0] === theirs.id;
      });
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await tree().setFilter({});
    }
  });

  it('offline: the status bar says so, and it recovers by itself', async () => {
    await w!.sb.control('POST', '/_sandbox/faults', { path: '/v1', status: 503, times: 1000 });
    await until('offline', () => core().state.kind === 'offline', 120_000);
    await driver.waitFor({ selector: '#workbench\\.parts\\.statusbar :text("offline")' });
    await driver.screenshot('ui-16-offline');
    await w!.sb.control('DELETE', '/_sandbox/faults');
    await until('back online', () => core().state.kind === 'online', 120_000);
  });

  it('not set up: without the identity file the welcome view says how to set it up', async () => {
    const aside = `${testEnv.machineFile}.aside`;
    fs.renameSync(testEnv.machineFile, aside);
    try {
      await app().refreshState();
      await driver.waitFor({ selector: `${SIDEBAR} .welcome-view-content:has-text("not set up")`, timeout: 30_000 });
      await driver.screenshot('ui-17-not-set-up');
      assert.equal(app().live, undefined);
    } finally {
      fs.renameSync(aside, testEnv.machineFile);
      await app().refreshState();
    }
    await until('signed in again silently from the stored sign-in', () => app().live?.core.state.kind === 'online');
  });

  const tree = () => app().live!.tree;
});
