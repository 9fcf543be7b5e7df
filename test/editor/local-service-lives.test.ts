// #51's workbench proofs, in the default settings (workspace scope, a fresh window set up for no
// service): Claude Code connected through its command starts the person's local service, and
// Start Local Service finds it; the window signs in (the person's Allow in the editor, F2); the
// real Claude Code, in a terminal of this window (its model scripted, test/bridge), asks through
// that service: the card shows in the tree and the panel, Approve is pressed there and the CLI
// runs the command; another window, opened after, has the card's history, its Answers row and
// the sign-in without signing in again. Stop Local Service: a prompt (the bridge's hook with
// Claude Code's event, runHook) falls back to the CLI's own (the hook prints nothing at once; the
// figure is logged). Start: the card left open comes back as it was, the answered card's history
// with it, and Claude Code, still running, asks its next prompt through a card again. And a store the service cannot open is a message in the Cards view saying
// what to do, the file untouched.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SERVICE_FILE } from '../../src/bridge/home';
import { readServiceFile } from '../../src/bridge/service-link';
import { readServiceState } from '../../src/bridge/service-state';
import { processGone } from '../../src/bridge/process-alive';
import { runHook } from '../../src/bridge/hook';
import { permissionCard } from '../../src/bridge/permission-card';
import type { App } from '../../src/editor/extension';
import type { LocalService } from '../../src/editor/connection/local-service-flows';
import { theApp, until, type World } from './cards-helpers';
import { inPanel, openFromTree } from './helpers/card-panel-ui';
import { connectThroughCommand } from './helpers/connect';
import { driver, driverAvailable } from './helpers/driver';
import { PICK_INPUT } from './helpers/quick-pick';
import { onOldest } from './oldest-vscode';
import { testEnv } from './helpers/env';
import { testLog } from './helpers/test-log';
import { claudeInTerminal, closeCliTerminal, installedCli, shootingSteps } from './helpers/real-cli';
import { startScriptedModel, type ScriptedModel } from '../bridge/scripted-model';

const OTHER = 'other-window';
const cfg = () => vscode.workspace.getConfiguration('assistantCards');

/** Claude Code's PermissionRequest, as its hook command gets it on stdin. */
const permission = (session: string, command: string) => JSON.stringify({
  session_id: session, transcript_path: '/tmp/t.jsonl', cwd: testEnv.workspace, hook_event_name: 'PermissionRequest',
  tool_name: 'Bash', tool_input: { command, description: 'Release' }, permission_suggestions: [],
});

/** The person's Allow in the editor's sign-in dialog (VS Code refuses modal dialogs in its test mode). */
async function signInAllowing(app: App, ls: LocalService): Promise<string[]> {
  const host = ls.host as { say: LocalService['host']['say'] };
  const say = host.say;
  const asked: string[] = [];
  host.say = { ...say, confirm: (text: string, detail: string) => { asked.push(`${text} ${detail}`); return Promise.resolve(true); } };
  try {
    void vscode.commands.executeCommand('assistantCards.signIn');
    await until('signed in to the local service', () => app.live?.core.state.kind === 'online' || undefined, 60_000);
  } finally {
    host.say = say;
  }
  return asked;
}

/** The parent process of `pid` (Linux /proc). */
function parentOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** Back to the runner's start: no service, this window set up for none. */
async function leave(app: App, home: string): Promise<void> {
  // Stopped as the person stops it, the mark first and kept: a window still counting itself set up
  // for it (on 1.93 a settings write may land in one of the runner's two places only) does not
  // start it again after the test (Start and Connect in a window set up for none go on as before).
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(home, 'stopped-by-person'), 'the test ended\n');
  await app.signOut().catch(() => undefined);
  await cfg().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
  await cfg().update('machineFile', testEnv.machineFile, vscode.ConfigurationTarget.Global);
  const state = readServiceState(home);
  if (state) { try { process.kill(state.pid, 'SIGTERM'); } catch { /* gone */ } }
  await until('the service ended', () => !readServiceState(home) || undefined, 20_000);
  for (const f of ['start-failed.json', 'cards.db', 'cards.db.pid', 'machine.json', 'sign-ins.jsonl']) fs.rmSync(path.join(home, f), { force: true, recursive: true });
  await app.refreshState();
}

describe('local service: what a person does with it lives on (#51)', function () {
  // The real Claude Code's start and a second window's on a loaded machine (two cores, a CI run beside) take minutes.
  this.timeout(540_000);
  let app: App;
  let ls: LocalService;
  let box: string;
  let terminal: vscode.Terminal | undefined;
  let claude: vscode.Terminal | undefined;
  let model: ScriptedModel | undefined;
  let bin = '';
  before(async function () {
    this.timeout(600_000); // a first install of Claude Code downloads about 400 MB from the npm registry
    bin = installedCli('claude');
    app = await theApp();
    ls = await app.localService.load();
    box = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-lives-'));
  });
  after(async () => {
    terminal?.dispose();
    await closeCliTerminal(claude);
    await model?.close();
    if (driverAvailable()) await driver.close(OTHER).catch(() => undefined);
    await leave(app, ls.home);
    fs.rmSync(box, { recursive: true, force: true });
  });

  it('a store it cannot open: the Cards view says what to do, and the file is left as it was', async () => {
    fs.mkdirSync(ls.home, { recursive: true, mode: 0o700 });
    const store = path.join(ls.home, 'cards.db');
    const junk = Buffer.from('the person\'s notes, not a store\n'.repeat(100));
    fs.writeFileSync(store, junk, { mode: 0o600 });
    const notified = vscode.commands.executeCommand('assistantCards.startLocalService'); // ends on an error notification nobody answers
    void notified;
    const message = await until('the Cards view says why', () => app.cardsView.view.message || undefined, 60_000);
    assert.match(message, /^The local service cannot start: The store .*cards\.db cannot be read: it is not a store of Assistant Cards, or it is damaged .*move it aside .* Fix it, then run Start Local Service\.$/);
    assert.equal(readServiceState(ls.home), undefined, 'no service, no empty desk');
    assert.deepEqual(fs.readFileSync(store), junk, 'not overwritten');
    if (driverAvailable()) await driver.screenshot('local-service-store-refused');
    // The person moves it aside: Start then works and the message goes.
    fs.renameSync(store, path.join(box, 'notes.db'));
    void vscode.commands.executeCommand('assistantCards.startLocalService');
    await until('it runs', () => readServiceState(ls.home), 30_000);
    await until('the message gone', () => !app.cardsView.view.message || undefined, 30_000);
    await leave(app, ls.home);
  });

  it('Connect Claude Code starts it; the real Claude Code\'s prompt is answered in the panel and the command runs; another window has its history, its Answers row and the sign-in; Stop: the CLI asks; Start: the open card and the history are back, and Claude Code\'s next prompt is a card again', async () => {
    // A person's window set up for no service: no identity file where the setting points (as the
    // default's is not there on a new computer). The runner's own names an address where nothing
    // listens, which Connect rightly takes for another service. (Removing the setting is not
    // enough here: the runner wrote it in both the user and the remote settings.)
    const began = Date.now();
    await cfg().update('machineFile', path.join(box, 'none', 'machine.json'), vscode.ConfigurationTarget.Global);
    await app.refreshState();
    // Connect, as a person connects it: the local service starts for it; Start Local Service finds it.
    const claudeHome = path.join(box, 'home');
    fs.mkdirSync(path.join(claudeHome, '.claude'), { recursive: true });
    await connectThroughCommand(app, 'claude-code', { CLAUDE_CONFIG_DIR: path.join(claudeHome, '.claude') });
    const state = await until('the local service runs', () => readServiceState(ls.home), 30_000);
    void vscode.commands.executeCommand('assistantCards.startLocalService'); // finds it; ends on "Sign In?" nobody answers
    await until('the window set up for it', () => cfg().get<string>('machineFile') === state.machineFile || undefined, 30_000);
    assert.equal(readServiceState(ls.home)?.pid, state.pid, 'Start found the one Connect started');
    const asked = await signInAllowing(app, ls);
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /Allow "Assistant Cards for VS Code" on the computer ".*" to sign in to your local service\?/);
    const core = app.live!.core;
    core.feed.setFocused(true);

    // The real Claude Code in a terminal of this window asks to run a command; its hook (the
    // launcher Connect installed) asks through the service the window started.
    const bridgeHome = path.dirname(ls.home);
    const released = path.join(box, 'released.txt');
    const command = `touch ${released} && echo released`;
    const title = permissionCard('claude-code', { tool_name: 'Bash', tool_input: { command } }).title;
    const project = path.join(box, 'shop');
    fs.mkdirSync(project);
    // Its second prompt (typed after Stop and Start) asks to run a second command.
    const releasedAgain = path.join(box, 'released-again.txt');
    const commandAgain = `touch ${releasedAgain}`;
    model = await startScriptedModel({ claude: [{ bash: command, description: 'Release' }, { text: 'Released.' }, { bash: commandAgain, description: 'Release again' }, { text: 'Released again.' }] });
    claude = claudeInTerminal({ bin, home: claudeHome, project, modelUrl: model.url, prompt: 'Release it.', bridgeHome });
    const step = shootingSteps('local-service-claude');
    // Workspace scope: the card counts once its live session is matched to this terminal.
    const card = await step('the real Claude Code\'s card in this window', () => core.cards.list('pending').find((c) => c.title === title), 120_000);
    // The person answers in the panel, opened from the card's row in the tree; Claude Code runs it.
    if (driverAvailable()) {
      await openFromTree({ app } as World, card.id, card.title);
      assert.ok((await driver.text(inPanel('body'))).includes(command), 'the whole command in the panel');
      await driver.click(inPanel('role=button[name="Approve"]'));
    } else {
      const out = await core.act(core.gestures.fromUiEvent('test:local-service'), await core.cards.whole(card.id), { type: 'answer', answer: { approved: true } });
      assert.ok(out.ok, JSON.stringify(out));
    }
    await step('the approved command ran', () => fs.existsSync(released) || undefined, 60_000);
    testLog(`[local-service] the real Claude Code's prompt answered and its command run, ${Date.now() - began} ms into the test`);
    await step('the card done', () => !core.cards.list('pending').some((c) => c.id === card.id) || undefined, 30_000);
    // Done (Claude Code's hook picked the answer up): its history is whole now.
    const history = await step('its history says answered, and done', async () => {
      const c = await core.cards.whole(card.id);
      return c.status === 'done' && c.history?.some((e) => e.type === 'answered') ? c.history : undefined;
    }, 30_000);
    // The Answers view (collapsed at first: it reads once opened), its row answered from here.
    await vscode.commands.executeCommand('assistantCards.answers.focus');
    const row = await until('its Answers row', () => core.answers.get(card.id)?.answer !== undefined ? core.answers.get(card.id) : undefined, 30_000);
    assert.match(JSON.stringify(row), /Assistant Cards for VS Code/, 'who answered: this app (on this computer)');

    // Another window, opened now: signed in from what is kept (no sign-in asked), with the row and the history.
    if (driverAvailable()) {
      // The panel closed first: the other window opens this folder without a card panel to bring
      // back. With it left open, that window showed no Cards data within 140 s twice at load 22-26
      // (it passed at load 10): a lighter start for the second window on a busy machine.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const base = testEnv.get('ASSISTANT_CARDS_TEST_VSCODE_URL')!;
      const payload = [['extensionDevelopmentPath', `vscode-remote://${new URL(base).host}${testEnv.root}`]];
      await driver.open(OTHER, `${base}/?folder=${encodeURIComponent(testEnv.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
      await driver.waitFor({ selector: '.monaco-workbench', page: OTHER, timeout: 60_000 });
      const rowSel = { selector: `.monaco-list-row:has-text(${JSON.stringify('released.txt')})`, page: OTHER };
      // The Answers view: open already where the workbench kept this folder's layout (1.93), else
      // opened there as a person opens it.
      if (!await driver.waitFor({ ...rowSel, timeout: 20_000 }).then(() => true, () => false)) {
        await driver.press('F1', { page: OTHER });
        await driver.waitFor({ selector: PICK_INPUT, page: OTHER });
        await driver.type('Focus on Answers View', OTHER);
        await driver.waitFor({ selector: '.quick-input-list .monaco-list-row:has-text("Focus on Answers View")', page: OTHER, timeout: 30_000 });
        await driver.press('Enter', { page: OTHER });
      }
      await until('the Answers row in the other window', async () => (await driver.count(rowSel)) > 0 || undefined, 120_000, 1_000).catch(async (e: unknown) => { await driver.screenshot('local-service-other-window', { page: OTHER }); throw e; });
      await driver.screenshot('local-service-other-window-answers', { page: OTHER });
      assert.equal(await driver.count({ selector: '.monaco-button:has-text("Sign In")', page: OTHER }), 0, 'no Sign In offered there');
      await driver.click(rowSel);
      const panel = { selector: 'body', frames: ['iframe.webview.ready', 'iframe#active-frame'], page: OTHER };
      const text = await until('the card\'s history in its panel', async () => {
        const t = await driver.text({ ...panel, timeout: 5_000 }).catch(() => '');
        return /answered\s+—\s+you · Assistant Cards for VS Code/.test(t) ? t : undefined;
      }, 60_000, 1_000).catch(async (e: unknown) => { await driver.screenshot('local-service-other-window-panel', { page: OTHER }); throw e; });
      assert.ok(text.includes(command), `the whole command in the other window's panel: ${text}`);
      await driver.close(OTHER);
      testLog(`[local-service] the other window had the history, the Answers row and the sign-in, ${Date.now() - began} ms into the test`);
    }

    // A card left open (its hook still waits), then Stop Local Service.
    terminal = vscode.window.createTerminal({ name: 'claude: deploy', shellPath: '/bin/sh' });
    const shellPid = await terminal.processId;
    const announced = path.join(bridgeHome, SERVICE_FILE);
    const ask = (session: string, command: string, waitMs = 120_000) =>
      runHook({ app: 'claude-code', input: permission(session, command), service: readServiceFile(announced), terminal: () => ({ pid: shellPid }), waitMs });
    const waiting = ask('sess-open', 'make deploy');
    const open = await until('the open card in this window', () => core.cards.list('pending').find((c) => c.title.includes('make deploy')), 60_000);
    const before = await core.cards.whole(open.id);
    await vscode.commands.executeCommand('assistantCards.stopLocalService');
    assert.equal(readServiceState(ls.home), undefined);
    assert.equal(await waiting, '', 'the waiting hook prints nothing: the CLI asks in its terminal');
    // A prompt now: the hook prints nothing, so Claude Code's own prompt takes over (bound: 1 s).
    const asked0 = Date.now();
    assert.equal(await ask('sess-after-stop', 'make later', 60_000), '');
    const fellBackMs = Date.now() - asked0;
    testLog(`[local-service] a prompt after Stop fell back to the CLI in ${fellBackMs} ms`);
    assert.ok(fellBackMs < 1_000, `the CLI's own prompt within a second (${fellBackMs} ms)`);

    // Start: the same window, still signed in (its keys kept), has the open card back as it was.
    void vscode.commands.executeCommand('assistantCards.startLocalService');
    await until('it runs again', () => readServiceState(ls.home), 30_000);
    const back = await until('the open card back in this window', () => app.live?.core.cards.list('pending').find((c) => c.id === open.id), 90_000);
    const again = await app.live!.core.cards.whole(back.id);
    assert.deepEqual(
      { id: again.id, title: again.title, kind: again.kind, version: again.version, status: again.status, history: again.history },
      { id: before.id, title: before.title, kind: before.kind, version: before.version, status: before.status, history: before.history },
    );
    assert.equal(app.live!.core.state.kind, 'online', 'no sign-in again');
    assert.deepEqual((await app.live!.core.cards.whole(card.id)).history, history, 'the real CLI\'s answered card: its history kept');

    // Claude Code ran on through Stop and Start: its session's next prompt is a card again (the
    // service kept the session, its key and the ask key the hook files it under), and Approve runs it.
    claude.sendText('Release it again.', true);
    const titleAgain = permissionCard('claude-code', { tool_name: 'Bash', tool_input: { command: commandAgain } }).title;
    const cardAgain = await step('the same session\'s next card after Start', () => app.live?.core.cards.list('pending').find((c) => c.title === titleAgain), 120_000);
    const coreAgain = app.live!.core;
    const out = await coreAgain.act(coreAgain.gestures.fromUiEvent('test:local-service'), await coreAgain.cards.whole(cardAgain.id), { type: 'answer', answer: { approved: true } });
    assert.ok(out.ok, JSON.stringify(out));
    await step('the command approved after Start ran', () => fs.existsSync(releasedAgain) || undefined, 60_000);
  });

  it('started by another window through Start Local Service, it lives on once that window is closed (its extension host gone)', async function () {
    if (!driverAvailable()) this.skip(); // a second window needs the Playwright driver (code-server)
    // code-server 4.93 (VS Code 1.93) keeps a closed window's extension host for its reconnection
    // grace time: still there 60 s after the window closed (measured), so no window's end to show there.
    if (onOldest()) this.skip();
    await leave(app, ls.home);
    const base = testEnv.get('ASSISTANT_CARDS_TEST_VSCODE_URL')!;
    const payload = [['extensionDevelopmentPath', `vscode-remote://${new URL(base).host}${testEnv.root}`]];
    await driver.open(OTHER, `${base}/?folder=${encodeURIComponent(testEnv.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    await driver.waitFor({ selector: '.monaco-workbench', page: OTHER, timeout: 60_000 });
    // The person's command, in that window's palette.
    const row = { selector: '.quick-input-list .monaco-list-row:has-text("Start Local Service")', page: OTHER };
    await until('Start Local Service run in the other window', async () => {
      await driver.press('F1', { page: OTHER });
      await driver.waitFor({ selector: PICK_INPUT, page: OTHER });
      await driver.type('Start Local Service', OTHER);
      if (!await driver.waitFor({ ...row, timeout: 10_000 }).then(() => true, () => false)) { await driver.press('Escape', { page: OTHER }); return undefined; }
      await driver.press('Enter', { page: OTHER });
      return true;
    }, 120_000, 1_000);
    const state = await until('the service the other window started', () => readServiceState(ls.home), 60_000)
      .catch(async (e: unknown) => { await driver.screenshot('local-service-started-elsewhere', { page: OTHER }); throw e; });
    // Its parent is the other window's extension host (a detached child keeps its parent), not this one.
    const starter = parentOf(state.pid);
    assert.notEqual(starter, process.pid, 'not started by this window');
    await driver.close(OTHER);
    // That window closed: its extension host ends (bound: 60 s); the service it started does not.
    const closedAt = Date.now();
    const ended = await until('the other window\'s extension host gone', () => processGone(starter) || undefined, 20_000).then(() => true, () => false);
    if (ended) testLog(`[local-service] the starting window's extension host ended ${Date.now() - closedAt} ms after its window closed`);
    else {
      // code-server may keep a closed window's extension host for its reconnection grace time (seen
      // in one CI run on 1.139 as on 1.93): end it as a crash of that window would. Only an
      // extension host is ended here, never the server the other tests stand on.
      const cmdline = fs.readFileSync(`/proc/${starter}/cmdline`, 'utf8').replace(/\0/g, ' ');
      assert.match(cmdline, /extensionHost/, `the service's parent is not an extension host: ${cmdline}`);
      process.kill(starter, 'SIGKILL');
      await until('the other window\'s extension host ended', () => processGone(starter) || undefined, 10_000);
      testLog(`[local-service] the starting window's extension host was still there ${Date.now() - closedAt} ms after its window closed: ended (SIGKILL)`);
    }
    assert.equal(processGone(state.pid), false, 'the service lives on');
    assert.equal(readServiceState(ls.home)?.pid, state.pid, 'still announced');
    assert.equal((await fetch(`${state.url}/v1/cards`)).status, 401, 'and serves: the Person API asks for a sign-in');
  });
});
