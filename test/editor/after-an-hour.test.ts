// What an hour of real use showed, in the workbench (Playwright under code-server), in the default
// scope (the asking assistants live in terminals of this window): the sign-in
// code in one progress notification (Copy and Open) that ends with the flow, and in the welcome
// (Copy and Open, Cancel); the tree moving in the same update as the panel's result (and
// offering Undo while held); a card picked up leaving the tree within the feed's latency; words
// that fit notices; the asking assistant visible in the tree; the history in words and local
// times; what was answered shown. Screenshots in Light Modern and Dark Modern: artifacts/hour-*.png.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Group } from '../../src/sync/contract';
import { newCard, signingIn, unwire, until, wire, type World, signInStateFor } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { defaultTheme, theme } from './helpers/theme';
import { notificationItem, notificationText } from './helpers/notifications';
import { intoWorkspaceScope } from './helpers/workspace-scope';

const SIDEBAR = '#workbench\\.parts\\.sidebar';
const WV = ['iframe.webview.ready', 'iframe#active-frame'];
const THEMES = [['light', 'Default Light Modern'], ['dark', 'Default Dark Modern']] as const;
const LIVE: Group[] = ['pending', 'agent', 'snoozed', 'delegated'];

describe('after an hour of use (Playwright)', function () {
  this.timeout(240_000);
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
    await signInStateFor(w!, this.currentTest?.title, /^sign-in: the code/);
    if (!workspaceScope && w!.app.live?.core.state.kind === 'online') workspaceScope = await intoWorkspaceScope(w!);
  });
  after(async () => {
    workspaceScope?.dispose();
    await defaultTheme();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await unwire(w);
  });

  const app = () => w!.app;
  const core = () => app().live!.core;
  const tree = () => app().live!.tree;
  const inPanel = (selector: string) => ({ selector, frames: WV });
  const row = (text: string) => ({ selector: `${SIDEBAR} .monaco-list-row:has-text(${JSON.stringify(text)})`, timeout: 60_000 });
  const inLive = (id: string) => LIVE.some((g) => tree().visible(g).some((c) => c.id === id));

  async function openOnly(cardId: string): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    app().openCard(cardId);
    await until('its panel', () => app().panels.get(cardId)?.isReady());
    await driver.waitFor(inPanel('#title'));
  }

  it('sign-in: the code lives in one notification that closes when signed in; the welcome carries it with Copy and Open and Cancel', async () => {
    await theme('Default Light Modern');
    await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
    const welcomeButton = (label: string) => ({ selector: `${SIDEBAR} .welcome-view-content .monaco-button:has-text(${JSON.stringify(label)})` });
    // Cancel in the welcome ends the flow: signed out again, its notification gone.
    await driver.click({ selector: `${SIDEBAR} .welcome-view-content .monaco-button:has-text("Sign In")` });
    const first = await signingIn(w!);
    await driver.waitFor({ selector: `${SIDEBAR} .welcome-view-content:has-text("Signing in")` });
    await driver.screenshot('hour-00-signing-in-welcome');
    // Listed first, so that "gone" below is the Cancel's doing.
    await notificationText(first.userCode);
    await vscode.commands.executeCommand('notifications.hideList');
    await driver.click(welcomeButton('Cancel'));
    await until('signed out after Cancel', () => core().state.kind === 'signed-out');
    await vscode.commands.executeCommand('notifications.showList');
    await until('no notification with the cancelled code', async () => (await driver.count({ selector: notificationItem(first.userCode) })) === 0);
    await vscode.commands.executeCommand('notifications.hideList');

    await driver.click({ selector: `${SIDEBAR} .welcome-view-content .monaco-button:has-text("Sign In")` });
    const s = await signingIn(w!);
    // The notifications centre lists every notification (toasts may not show in the headless
    // workbench); the code must be in exactly one of them, the progress with Copy and Open.
    const item = notificationItem(s.userCode);
    try {
      await driver.waitFor({ selector: `${SIDEBAR} .pane-header:has-text("code ${s.userCode}")` });
      await driver.waitFor(welcomeButton('Copy and Open'));
      await driver.waitFor(welcomeButton('Cancel'));
      assert.equal(app().status.item.command, 'assistantCards.copySignInCode', 'the status bar\'s click is Copy and Open too');
      await driver.screenshot('hour-01-sign-in-light');
      await vscode.commands.executeCommand('notifications.showList');
      await driver.waitFor({ selector: item });
      assert.equal(await driver.count({ selector: item }), 1, 'the code shows in one notification');
      await driver.waitFor({ selector: `${item} a:text-is("Copy and Open")` });
      await driver.screenshot('hour-01-sign-in-code-light');
      await theme('Default Dark Modern');
      await driver.screenshot('hour-01-sign-in-code-dark');
      await vscode.commands.executeCommand('notifications.hideList');
      // Copy and Open in the welcome: the code on the clipboard.
      await vscode.env.clipboard.writeText('');
      await driver.click(welcomeButton('Copy and Open'));
      await until('the code on the clipboard', async () => (await vscode.env.clipboard.readText()) === s.userCode);
    } finally {
      // Signed in whatever happened above, so the tests after this one run.
      await w!.sb.control('POST', '/_sandbox/device/approve', { user_code: s.userCode });
      await until('signed in', () => core().state.kind === 'online');
      core().feed.setFocused(true);
    }
    // Signed in: nothing about the code stays up, in the notifications or the view.
    await vscode.commands.executeCommand('notifications.showList');
    await until('the code\'s notification closed with the flow', async () => (await driver.count({ selector: item })) === 0);
    await vscode.commands.executeCommand('notifications.hideList');
    assert.equal(app().cardsView.view.description, undefined, 'the code left the view');
  });

  // The real 5 s hold: what is checked (Undo in the tree, the panel's words) shows during it.
  for (const [look, name] of THEMES) {
    it(`the tree moves in the same update as the panel's "Answered.", offers Undo while held, and a picked-up card leaves promptly (${look})`, async () => {
      await theme(name);
      const title = `Which database? (${look})`;
      const c = await newCard(w!, { kind: 'choice', title, options: [{ id: 'pg', label: 'Postgres' }, { id: 'sq', label: 'SQLite' }], blocking: true, urgency: 'today' });
      await driver.waitFor(row(title));
      await openOnly(c.id);
      // Reads of this card are slow now (3 s): only the press's own result can move the tree in time.
      await w!.sb.control('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}`, method: 'GET', delayMs: 3_000, times: 20 });
      try {
        await driver.click(inPanel('label.option:has-text("SQLite")'));
        await driver.click(inPanel('#answer'));
        await driver.waitFor(inPanel('.notice:has-text("Answered.")'));
        // Read as soon as the person can see "Answered.": well inside the 3 s a read would take.
        const atDone = { group: core().cards.groupOf(c.id), context: String(tree().getTreeItem({ kind: 'card', id: c.id }).contextValue) };
        assert.equal(atDone.group, 'agent', 'in Waiting on the assistant when the panel says "Answered."');
        assert.match(atDone.context, /\bcard:held\b/, 'Undo is offered in the tree during the hold');
        assert.ok(tree().visible('agent').some((x) => x.id === c.id));
        assert.ok(!tree().visible('pending').some((x) => x.id === c.id));
        // The tree's Undo before the panel's answer line: Undo shows for the hold only, the line stays.
        await driver.waitFor({ selector: `${SIDEBAR} .monaco-list-row:has-text(${JSON.stringify(title)}) .action-label[aria-label^="Undo"]`, state: 'attached', timeout: 3_000 });
        assert.match(await driver.text(inPanel('#answered')), /You chose: SQLite\./);
        await driver.screenshot(`hour-02-answered-tree-and-panel-${look}`);
      } finally {
        await w!.sb.control('DELETE', '/_sandbox/faults');
      }
      await until('the hold over', async () => ((await w!.sb.control<{ heard: unknown[] }>('GET', `/_sandbox/cards/${c.id}/heard`)).heard.length ? true : undefined));
      await w!.sb.control('POST', `/_sandbox/cards/${c.id}/pickup`);
      const t0 = Date.now();
      await until('the picked-up card to leave the live groups', () => !inLive(c.id), 5_000);
      assert.ok(Date.now() - t0 < 5_000, `left in ${Date.now() - t0} ms`);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });
  }

  // The real 5 s hold: Got it's countdown is read while it runs (Got it's test of the hold).
  for (const [look, name] of THEMES) {
    it(`a notice's Got it says "closed", never the assistant, and leaves the live groups at once (${look})`, async () => {
      await theme(name);
      const hook = await w!.sb.control<{ id: string; url: string }>('POST', '/_sandbox/webhooks', { name: `Deploys ${look}`, area: { id: 'prj_web', name: 'Web' } });
      const sent = await (await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: `Deploy failed (${look})`, severity: 'error', dedupeKey: look }) })).json() as { cardId: string };
      await until('the notice', () => core().cards.get(sent.cardId));
      await openOnly(sent.cardId);
      await driver.click(inPanel('button:has-text("Got it")'));
      // The countdown first, in one read that waits for it: it shows for the hold only, and a
      // loaded machine's wait for the notice before it could outlast the 5 s.
      assert.match(await driver.text(inPanel('#countdown')), /Closes in [1-5] s/);
      await driver.waitFor(inPanel('.notice:has-text("Got it — closed.")'));
      assert.ok(!inLive(sent.cardId), 'not in Waiting on the assistant (nor any live group)');
      const status = await driver.text(inPanel('#status'));
      assert.doesNotMatch(status, /assistant/i);
      await driver.screenshot(`hour-03-notice-got-it-${look}`);
      await driver.waitFor({ selector: inPanel('#countdown').selector, frames: WV, state: 'detached', timeout: 10_000 });
      assert.doesNotMatch(await driver.text(inPanel('#status')), /assistant/i, 'after the hold: no assistant heard anything');
      await driver.screenshot(`hour-04-notice-closed-${look}`);
    });
  }

  it('two assistants asking the same question differ in the tree (label and tooltip)', async () => {
    const other = await w!.sb.control<{ id: string }>('POST', '/_sandbox/assistants', { name: 'Codex', app: 'codex', machineId: w!.machineId });
    const otherAgent = await w!.sb.control<{ id: string }>('POST', '/_sandbox/agents', { assistantId: other.id, name: 'api' });
    // The second assistant runs in a terminal of this window too: its cards are in this window's scope.
    const codexHere = await intoWorkspaceScope(w!, [otherAgent.id]);
    try {
      const q = 'Should the migration run before the deploy or after it, given the new index?';
      const a = await newCard(w!, { kind: 'approval', title: q });
      const b = await newCard(w!, { kind: 'approval', title: q }, otherAgent.id);
      await until('both in the tree', () => tree().visible('pending').some((x) => x.id === a.id) && tree().visible('pending').some((x) => x.id === b.id));
      const la = String(tree().getTreeItem({ kind: 'card', id: a.id }).label);
      const lb = String(tree().getTreeItem({ kind: 'card', id: b.id }).label);
      assert.ok(la.startsWith('Claude · main: '), la);
      assert.ok(lb.startsWith('Codex · api: '), lb);
      assert.match(String(tree().getTreeItem({ kind: 'card', id: b.id }).tooltip), /Asked by Codex · api \(codex\)/);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const [look, name] of THEMES) {
        await theme(name);
        await driver.waitFor(row('Codex · api: Should the migration'));
        await driver.screenshot(`hour-05-two-assistants-${look}`);
      }
    } finally {
      codexHere.dispose();
    }
  });

  it('history: a message by its words, Later in local time; what was written is shown', async () => {
    const c = await newCard(w!, { kind: 'text', title: 'Name the release branch' });
    await until('the card', () => core().cards.get(c.id));
    await openOnly(c.id);
    await driver.click(inPanel('button:has-text("Tomorrow (8 AM)")'));
    await driver.waitFor(inPanel('.notice:has-text("Put in Later")'));
    await until('the card in Later', () => core().cards.groupOf(c.id) === 'snoozed' || undefined);
    await driver.click(inPanel('button:has-text("Back now")'));
    await driver.waitFor(inPanel('.notice:has-text("Back in the stack")'));
    await driver.waitFor(inPanel('#field-message'));
    await driver.fill(inPanel('#field-message'), 'call it release/2026-11');
    await driver.click(inPanel('button:has-text("Send")'));
    await driver.waitFor(inPanel('.notice:has-text("Sent to the assistant")'));
    await driver.waitFor(inPanel('.history li:has-text("call it release/2026-11")'));
    const lines = await driver.texts(inPanel('.history li'));
    assert.ok(!lines.some((l) => /msg_/.test(l)), `no message id: ${lines.join(' | ')}`);
    // The step in words (not the service's `later`), its time local.
    const later = lines.find((l) => /\bput in Later\b/.test(l));
    assert.ok(later && !/\d{4}-\d\d-\d\dT/.test(later), `Later in words and local time: ${lines.join(' | ')}`);
    assert.ok(lines.some((l) => /\bback from Later\b/.test(l) && /\byou\b/.test(l)), `Back in words, by you: ${lines.join(' | ')}`);
    assert.match(await driver.text(inPanel('#answered')), /You wrote: call it release\/2026-11/);
    for (const [look, name] of THEMES) {
      await theme(name);
      await driver.screenshot(`hour-06-history-${look}`);
    }
  });
});
