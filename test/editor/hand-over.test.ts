// Handing over, a loop helper's proposal, a failure card's step and scopes the person did not
// allow, driven through the workbench as a person would (Playwright under code-server), in the
// default scope (the asking assistant live in a terminal of this window): the
// palette's quick picks by keyboard, the views' text. Each test fails without its feature.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Card } from '../../src/api/schemas';
import { problemMessage } from '../../src/shared/problem-messages';
import { heard, newCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { chooseInPanel, openFromTree } from './helpers/card-panel-ui';
import { typeInPalette } from './helpers/quick-pick';
import { realHold, shortHold } from './helpers/hold';
import { notificationListed } from './helpers/notifications';
import { intoWorkspaceScope } from './helpers/workspace-scope';

const SIDEBAR = '#workbench\\.parts\\.sidebar';
const ROW = '.quick-input-list .monaco-list-row';
const row = (text: string) => ({ selector: `${ROW}:has-text(${JSON.stringify(text)})` });
/** The card panel's document: the webview's outer iframe, then its content frame. */
const WV = ['iframe.webview.ready', 'iframe#active-frame'];
const inPanel = (selector: string) => ({ selector, frames: WV });
const notice = (text: string) => ({ selector: `.notifications-center .notification-list-item-message:has-text(${JSON.stringify(text)})`, timeout: 30_000 });

describe('hand-over, proposals, failed steps and scopes (Playwright)', function () {
  this.timeout(180_000);
  let w: World | undefined;
  let helper: { id: string };
  let reviewer: { id: string };
  /** The default scope a person gets (workspace): the card's assistant live in this window's terminal. */
  let workspaceScope: vscode.Disposable | undefined;

  const app = () => w!.app;
  const core = () => app().live!.core;

  /** F1, the command by its title, Enter; then the card by its title, Enter. */
  async function runOnCard(command: string, title: string): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await driver.press('Escape');
    await typeInPalette(`Assistant Cards: ${command}`);
    await driver.waitFor(row(`Assistant Cards: ${command}`));
    await driver.press('Enter');
    await driver.waitFor(row(title));
    await driver.type(title);
    await driver.press('Enter');
  }

  /** Opens the card's panel by clicking its row, alone in the editor (a stray panel closed: the shared helper). */
  const openOnly = (cardId: string, title: string): Promise<void> => openFromTree(w!, cardId, title);

  /** Moves a select's choice with the arrow keys until the chosen option starts with `text`. */
  const choose = chooseInPanel;

  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    helper = await w.sb.control<{ id: string }>('POST', '/_sandbox/assistants', { name: 'Codex helper', app: 'codex', machineId: w.machineId });
    reviewer = await w.sb.control<{ id: string }>('POST', '/_sandbox/agents', { assistantId: helper.id, name: 'reviewer' });
    await w.sb.control('POST', '/_sandbox/agents', { assistantId: helper.id, name: 'builder' });
    await signInApproved(w);
    workspaceScope = await intoWorkspaceScope(w);
  });
  // A test that asked for a short hold leaves the real one to the next.
  afterEach(async () => { if (w) await realHold(w.sb); });
  after(async () => {
    workspaceScope?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await unwire(w);
  });

  it('palette hand-over: the asker is not offered; a specific agent and freely are picked; the person reads when the helper hears it', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    const c = await newCard(w!, { kind: 'text', title: 'Palette hand-over' });
    await until('the card', () => core().cards.get(c.id));
    await runOnCard('Hand Over to Helper', 'Palette hand-over');
    await driver.waitFor(row('Codex helper'));
    assert.equal(await driver.count(row('Claude')), 0, 'the asking assistant is not offered as its own helper');
    await driver.type('Codex helper');
    await driver.press('Enter');
    await driver.waitFor(row('reviewer'));
    await driver.type('reviewer');
    await driver.press('Enter');
    await driver.waitFor(row('Freely'));
    await driver.type('Freely');
    await driver.press('Enter');
    // The note's input box (its own title: the mode pick has closed), then Enter: no note.
    await driver.waitFor({ selector: '.quick-input-widget .quick-input-title:has-text("Note for the helper")' });
    await driver.press('Enter');
    const card = await until('delegated', async () => { const x = await core().cards.read(c.id); return x.status === 'delegated' ? x : undefined; }, 30_000, 250);
    assert.deepEqual(card.delegatedTo, { assistantId: helper.id, agentId: reviewer.id, mode: 'freely' });
    // The notifications centre lists the message as its toast does (toasts may not show headless).
    await vscode.commands.executeCommand('notifications.showList');
    await driver.waitFor(notice('hears it while it works'));
    assert.match(await driver.text(notice('hears it while it works')), /^Assistant Cards: Codex helper · reviewer hears it while it works/);
    await driver.screenshot('hand-over-palette');
    await vscode.commands.executeCommand('notifications.hideList');
  });

  /** Hands a card to the helper in `loop` mode (as the panel would) and lets the helper answer. */
  async function proposed(c: { id: string; version: number }, answer: Record<string, unknown>): Promise<Card> {
    const shown = { ...await core().cards.whole(c.id), version: c.version };
    const out = await core().act(core().gestures.fromUiEvent('test:delegate'), shown, { type: 'delegate', to: { assistantId: helper.id }, mode: 'loop' });
    assert.ok(out.ok, 'handed over');
    // The helper sees the card once the hold to take it back is over (5 s, or a test's shorter one).
    await until('the helper answered', () => w!.sb.control('POST', `/_sandbox/cards/${c.id}/helper-answer`, answer).then(() => true), 30_000, 250);
    return until('the proposal in this window', async () => { const x = await core().cards.read(c.id); return x.proposal ? x : undefined; });
  }

  it('palette: a loop helper\'s proposal reads as the card\'s words and one pick accepts it as the answer', async () => {
    await shortHold(w!.sb); // about the palette's words for a proposal, not the holds
    const c = await newCard(w!, { kind: 'choice', title: 'Palette proposal', options: [{ id: 'pg', label: 'Postgres' }, { id: 'sq', label: 'SQLite' }] });
    await until('the card', () => core().cards.get(c.id));
    await proposed(c, { choiceIds: ['sq'], note: { text: 'it is smaller' } });
    await runOnCard('Answer', 'Palette proposal');
    await driver.waitFor(row('Accept the helper\'s proposal'));
    const words = await driver.text(row('Accept the helper\'s proposal'));
    assert.match(words, /Choose SQLite\./);
    assert.doesNotMatch(words, /\bsq\b|choiceIds|\{/, 'no ids, no JSON');
    await driver.screenshot('proposal-palette');
    await driver.press('Enter');
    const h = await until('the assistant to hear the accepted proposal', async () => { const x = await heard(w!, c.id); return x.length ? x : undefined; });
    assert.equal(h[0]!.type, 'answer');
    assert.deepEqual(h[0]!.body.choiceIds, ['sq']);
  });

  it('palette: a failure card\'s step is picked, the marked one first, and reaches the service', async () => {
    await shortHold(w!.sb); // about the step picked, not the hold
    const c = await newCard(w!, {
      kind: 'failure', title: 'Palette failure',
      steps: [{ title: 'Build image', state: 'done' }, { title: 'Push image', state: 'done' }, { title: 'Roll out', state: 'failed' }, { title: 'Smoke test', state: 'pending' }],
    });
    await until('the card', () => core().cards.get(c.id));
    await runOnCard('Answer', 'Palette failure');
    await driver.waitFor({ selector: `${ROW}.focused:has-text("3. Roll out")` });
    await driver.press('ArrowUp');
    await driver.waitFor({ selector: `${ROW}.focused:has-text("2. Push image")` });
    await driver.press('Enter');
    await driver.waitFor({ selector: '.quick-input-widget :text("What to tell the assistant")' });
    await driver.type('the registry was full');
    await driver.press('Enter');
    const h = await until('the assistant to hear the failed step', async () => { const x = await heard(w!, c.id); return x.length ? x : undefined; });
    assert.equal(h[0]!.body.failedStep, 1);
    assert.equal(h[0]!.body.text, 'the registry was full');
  });

  it('panel hand-over: the asker is not offered; a specific agent, freely; the panel says when the helper hears it', async () => {
    const c = await newCard(w!, { kind: 'text', title: 'Panel hand-over' });
    await openOnly(c.id, 'Panel hand-over');
    await driver.click(inPanel('button:has-text("Hand over…")'));
    await driver.waitFor({ ...inPanel('select[data-key="handover-assistant"] option:has-text("Codex helper")'), state: 'attached' });
    assert.equal(await driver.count(inPanel('select[data-key="handover-assistant"] option:has-text("Claude")')), 0, 'the asker is not offered');
    await choose('select[data-key="handover-assistant"]', 'Codex helper');
    await choose('select[data-key="handover-agent"]', 'reviewer');
    assert.match(await driver.text(inPanel('select[data-key="handover-mode"] option:checked')), /^freely/);
    await driver.click(inPanel('button[data-key="handover-send"]'));
    await driver.waitFor(inPanel('#status :text("hears it while it works")'));
    await driver.screenshot('hand-over-panel');
    const card = await core().cards.read(c.id);
    assert.deepEqual(card.delegatedTo, { assistantId: helper.id, agentId: reviewer.id, mode: 'freely' });
  });

  it('panel: a loop helper\'s proposal reads in the card\'s words; one press accepts it as the answer', async () => {
    const c = await newCard(w!, { kind: 'choice', title: 'Which queue?', summary: 'The jobs need a queue.', options: [{ id: 'rq', label: 'Redis queue' }, { id: 'sqs', label: 'Amazon SQS' }], recommendedIds: ['rq'] });
    await until('the card', () => core().cards.get(c.id));
    // The hand-over waits the real 5 s before the helper may answer (the one host test that
    // does); accepting is an answer, whose real hold cards and ui-cards wait: a short one here.
    await proposed(c, { choiceIds: ['sqs'], note: { text: 'no server to run' } });
    await shortHold(w!.sb);
    await openOnly(c.id, 'Which queue?');
    await driver.waitFor(inPanel('#proposal button:has-text("Accept as my answer")'));
    // The helper by its name once the assistants are read (until then the panel names its id).
    const words = await until('the proposer by name', async () => {
      const t = await driver.text(inPanel('#proposal'));
      return /Codex helper proposes/i.test(t) ? t : undefined;
    }, 30_000);
    assert.match(words, /Choose Amazon SQS\./);
    assert.match(words, /Note: no server to run/);
    assert.doesNotMatch(words, /\bsqs\b|choiceIds|\{/, 'no ids, no JSON');
    await driver.screenshot('loop-proposal');
    await driver.click(inPanel('#proposal button:has-text("Accept as my answer")'));
    const h = await until('the assistant to hear the accepted proposal', async () => { const x = await heard(w!, c.id); return x.length ? x : undefined; });
    assert.deepEqual(h[0]!.body.choiceIds, ['sqs']);
    assert.deepEqual(h[0]!.body.note, { text: 'no server to run' });
  });

  it('panel: a failure card\'s step, the marked one checked first; the one picked reaches the service', async () => {
    await shortHold(w!.sb); // about the step picked, not the hold
    const c = await newCard(w!, {
      kind: 'failure', title: 'Panel failure', summary: 'Health check timed out.',
      steps: [{ title: 'Build image', state: 'done' }, { title: 'Push image', state: 'done' }, { title: 'Roll out', state: 'failed', detail: 'readiness probe failed' }],
    });
    await openOnly(c.id, 'Panel failure');
    await driver.waitFor(inPanel('label.step.chosen:has-text("Roll out")'));
    await driver.click(inPanel('label.step:has-text("Push image")'));
    await driver.waitFor(inPanel('label.step.chosen:has-text("Push image")'));
    await driver.screenshot('failure-step-panel');
    await driver.click(inPanel('#answer'));
    const h = await until('the assistant to hear the failed step', async () => { const x = await heard(w!, c.id); return x.length ? x : undefined; });
    assert.equal(h[0]!.body.failedStep, 1);
  });

  it('scopes not allowed: answering is not offered, the view says how to allow it, and insufficient_scope names the scope', async () => {
    await app().signOut();
    await until('signed out', () => core().state.kind === 'signed-out');
    await signInApproved(w!, ['cards:read', 'cards:later', 'assistants:read', 'presence:desk']);
    const c = await newCard(w!, { kind: 'choice', title: 'Scoped question', options: [{ id: 'a', label: 'A' }] });
    await until('the card', () => core().cards.get(c.id));
    await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
    await driver.waitFor({ selector: `${SIDEBAR} :text("not allowed to answer cards (cards:answer)")`, timeout: 30_000 });
    await driver.screenshot('scopes-view-note');
    // The palette: Later is offered, Answer is not.
    await driver.press('Escape');
    await typeInPalette('Assistant Cards: Later');
    await driver.waitFor(row('Assistant Cards: Later'));
    await driver.press('Escape');
    await typeInPalette('Assistant Cards: Answer');
    await driver.waitFor({ selector: `${ROW}:has-text("No matching commands"), ${ROW}:has-text("Assistant Cards")` });
    assert.equal(await driver.count({ selector: `${ROW}:has-text("Assistant Cards: Answer")` }), 0, 'Answer is not offered');
    await driver.screenshot('scopes-palette');
    await driver.press('Escape');
    // Run by id (a key, another extension) while disabled: each says the scope its row of the action
    // table needs, and sends nothing.
    for (const [command, scope] of [['answer', 'cards:answer'], ['writeToAssistant', 'cards:reply'], ['handOver', 'cards:delegate'], ['takeBack', 'cards:delegate']] as const) {
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand(`assistantCards.${command}`, c.id);
      await notificationListed(`lacks the permission ${scope}.`);
    }
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
    assert.equal((await heard(w!, c.id)).length, 0, 'nothing reached the assistant');
    // The panel: no answering, the note says how to allow it; Later (allowed) is there.
    await openOnly(c.id, 'Scoped question');
    await driver.waitFor(inPanel('#not-allowed:has-text("answer cards (cards:answer)")'));
    await driver.waitFor(inPanel('button:has-text("In 1 hour")'));
    assert.equal(await driver.count(inPanel('#answer')), 0, 'no Answer button');
    assert.equal(await driver.count(inPanel('button:has-text("Send")')), 0, 'no writing to the assistant');
    assert.equal(await driver.count(inPanel('button:has-text("Hand over")')), 0, 'no hand-over');
    await driver.screenshot('scopes-panel');
    // The view still says it with a panel open (what the extension set, then what the view shows).
    assert.match(String(app().live!.tree.view.message), /cards:answer/, 'the cards view keeps its note');
    await driver.waitFor({ selector: `${SIDEBAR} :text("not allowed to answer cards (cards:answer)")`, timeout: 10_000 });
    // The service's own refusal names the scope the sign-in lacks.
    const shown = { ...await core().cards.whole(c.id), version: c.version };
    const out = await core().act(core().gestures.fromUiEvent('test:answer'), shown, { type: 'answer', answer: { choiceIds: ['a'] } });
    assert.ok(!out.ok);
    assert.equal(out.problem.code, 'insufficient_scope');
    assert.equal(out.problem.scope, 'cards:answer');
    assert.match(problemMessage(out.problem.code, out.problem).message, /lacks the permission cards:answer/);
  });
});
