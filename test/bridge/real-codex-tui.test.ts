// The real Codex (0.171.0, the test cache) as people run it: its interactive terminal UI, in a
// pseudo-terminal (pty-screen.ts), driven by keys against the scripted model. Connect's entries are
// in the person's hooks.json; Codex asks the person to review new hooks before they run, and the
// test does that review through the screen, once, as a person would (never
// --dangerously-bypass-hook-trust). Then the card flows: approve, decline with a note, the wait
// running out (Codex's own prompt takes over in its terminal), the session's end, and Codex's
// request_user_input (which no hook can answer: the contract below). docs/cli-hooks.md says what
// was measured.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliBaseEnv, codexConfig } from './cli-run';
import { entriesFor, hookCommand } from '../../src/bridge/connect-settings';
import { startScriptedModel, type Step } from './scripted-model';
import { realCliKit, withWait, type LiveSession } from './real-cli-kit';
import { keys, startInPty, type PtyProgram } from './pty-screen';
import { firstWords } from '../../src/bridge/tool-input';
import { until } from '../kit/until';

/**
 * Codex's "Default" permissions (its /permissions preset): the sandbox for the workspace, and a
 * command that asks to leave it asks for approval. Left unset here, the TUI ran with a policy that
 * refuses such a command without asking anyone (measured: "approval policy is Granular(…
 * sandbox_approval: false …); reject command"), so no hook and no prompt would ever run.
 */
const PERSON_CONFIG = 'approval_policy = "on-request"\nsandbox_mode = "workspace-write"\n';
/** The PermissionRequest hook's wait in these tests (Connect's is 110 s): long enough to answer, short enough to run out. */
const WAIT_S = 8;
const OWN_PROMPT = 'Would you like to run the following command?';
const READY = 'Ask Codex to do anything';

/** The UI's process gone, as after a person's /quit or Exit (bound: 30 s). */
async function uiGone(p: PtyProgram, what = 'Codex to quit'): Promise<void> {
  assert.equal(await until(what, () => Promise.race([p.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 100))]), 30_000), true);
}

/** A menu or the prompt box left with Enter (its item already chosen), and the UI gone. */
async function enterAndGone(p: PtyProgram, what?: string): Promise<void> {
  await p.settled();
  p.type(keys.enter);
  await uiGone(p, what);
}

/** Codex quit from its prompt box as a person does: /quit, Enter, and the UI's process gone. */
async function quit(p: PtyProgram): Promise<void> {
  await p.press('/quit', '/quit');
  await enterAndGone(p);
}

describe('bridge: the real Codex interactive UI asks through a card (pty)', function () {
  this.timeout(180_000);
  let running: PtyProgram | undefined;
  /** A second UI's pty, where a test runs two. */
  let second: PtyProgram | undefined;
  // Registered before the kit's: Codex stops before the service and its box go.
  afterEach(async () => {
    for (const p of [running, second]) {
      p?.kill();
      if (p) await Promise.race([p.exited, new Promise((r) => setTimeout(r, 5_000))]);
    }
    running = undefined;
    second = undefined;
  });
  const kit = realCliKit({ prefix: 'real-codex-tui-', install: (i) => i.ensureCodex({ quiet: true }) });

  // The person's own machine across the tests: one home with ~/.codex, the launcher Connect installs.
  let own = '';
  let asksCommand = '';
  const home = () => path.join(own, 'home');
  const codexHome = () => path.join(home(), '.codex');
  const configFile = () => path.join(codexHome(), 'config.toml');
  before(async () => {
    own = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-tui-own-'));
    fs.mkdirSync(codexHome(), { recursive: true });
    fs.mkdirSync(path.join(own, 'project'));
    const entries = entriesFor('codex', hookCommand(await kit.launcher(path.join(own, 'bin')), 'codex'));
    const asks = entries.PermissionRequest!.hooks[0]!;
    asks.command = asksCommand = withWait(asks.command, WAIT_S);
    asks.timeout = WAIT_S + 10;
    const hooks = Object.fromEntries(Object.entries(entries).map(([event, group]) => [event, [group]]));
    fs.writeFileSync(path.join(codexHome(), 'hooks.json'), JSON.stringify({ hooks }, null, 2));
    fs.writeFileSync(configFile(), PERSON_CONFIG + codexConfig('http://127.0.0.1:9'));
  });
  beforeEach(() => {
    // Codex's hooks run in its shared background server, with the environment of the terminal that
    // started it (measured): one bridge home for all the tests, told of each test's service.
    fs.copyFileSync(path.join(kit.box.root, 'local-service.json'), path.join(own, 'local-service.json'));
  });
  after(() => {
    if (!own) return;
    // The background server outlives the terminal UI: stopped as a person would, then anything of
    // this test's own Codex home still running.
    spawnSync(kit.bin, ['app-server', 'daemon', 'stop'], { env: codexEnv(), timeout: 30_000, stdio: 'ignore' });
    for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try { if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(own)) process.kill(Number(pid), 'SIGKILL'); } catch { /* gone */ }
    }
    fs.rmSync(own, { recursive: true, force: true });
  });

  /** The person's config.toml points at this test's model; Codex's own lines in it (the hooks' trust) stay. */
  const pointAt = (url: string) => {
    const text = fs.readFileSync(configFile(), 'utf8');
    fs.writeFileSync(configFile(), text.replace(/^base_url = ".*"$/m, `base_url = "${url}/v1"`));
  };
  const codexEnv = () => ({ ...cliBaseEnv(), HOME: home(), CODEX_HOME: codexHome(), SCRIPTED_API_KEY: 'sk-scripted-model', RUST_LOG: 'error', ASSISTANT_CARDS_HOME: own });
  const codex = (cwd: string, args: string[] = []): PtyProgram => {
    running = startInPty([kit.bin, ...args], { cwd, env: codexEnv() });
    return running;
  };
  const trustedHooks = () => [...fs.readFileSync(configFile(), 'utf8').matchAll(/^\[hooks\.state\."[^"]*hooks\.json:([a-z_]+):\d+:\d+"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"$/gm)].map((m) => m[1]!).sort();

  /** The review a person does at the first start after Connect: seen once for the whole file. */
  let reviewed: Promise<string[]> | undefined;
  const review = () => reviewed ??= (async () => {
    const model = await startScriptedModel({});
    try {
      pointAt(model.url);
      const p = codex(path.join(own, 'project'));
      const first = await p.waitFor('Hooks need review', 120_000);
      assert.match(first, /6 hooks are new or changed/);
      assert.match(first, /3\. Continue without trusting \(hooks won't run\)/);
      // "1. Review hooks": every event with its count, the first to review selected.
      const list = await p.press(keys.enter, 'Lifecycle hooks');
      assert.match(list, /› PermissionRequest\s+1\s+0\s+1/, 'the hook that asks is the first to review');
      // Its details: the command is the launcher Connect installed, not yet trusted.
      const details = await p.press(keys.enter, 'PermissionRequest hooks');
      assert.match(details, /Source\s+User config - ~\/\.codex\/hooks\.json/);
      assert.ok(details.includes(`Command   ${asksCommand}`), `the launcher's whole command shown: ${details}`);
      assert.match(details, /Trust\s+New hook - review required/);
      assert.match(await p.press('t', /Trust\s+Trusted/), /\[x\]/);
      // Back to the list: the other five (they only tell the service what happened), trusted together.
      assert.match(await p.press(keys.esc, /⚠ 5 hooks need review/), /› PermissionRequest\s+1\s+1\s+0/);
      await p.press('t', 'enter details · esc close');
      await p.press(keys.esc, READY);
      await quit(p);
      running = undefined;
      return trustedHooks();
    } finally {
      await model.close();
    }
  })();

  /** Codex started in the test's project with `script`, ready for a prompt (its hooks trusted). */
  const start = async (script: Step[], args: string[] = []) => {
    await review();
    const model = kit.useModel(await startScriptedModel({ codex: script }));
    pointAt(model.url);
    const p = codex(kit.box.project, args);
    const screen = await p.waitFor(new RegExp(`${READY}|Hooks need review`), 120_000);
    assert.doesNotMatch(screen, /Hooks need review/, 'the review is not asked again');
    return { p, model };
  };
  const prompt = async (p: PtyProgram, words: string) => {
    await p.press(words, words);
    await p.press(keys.enter, /Working|Running/);
  };
  /** Shift+Tab to Plan mode, as often as a person presses it until the footer says so (a key right after the start can be dropped). */
  const plan = async (p: PtyProgram) => {
    for (let tries = 0; tries < 3; tries++) {
      await p.settled();
      p.type('\x1b[Z');
      try { await p.waitFor('Plan mode', 5_000); return; } catch { /* pressed again */ }
    }
    await p.waitFor('Plan mode', 1);
  };
  /** The Codex UI a pty runs (the relay's child) and the terminal device it is on, read from /proc. */
  const uiOf = (p: PtyProgram) => {
    const pid = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).find((d) => {
      try { return fs.readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1] === String(p.pid); } catch { return false; }
    });
    assert.ok(pid, `the Codex UI under the pty relay ${p.pid}`);
    return { pid, tty: fs.readlinkSync(`/proc/${pid}/fd/0`) };
  };
  const openCards = async () => ((await kit.person.request('GET', '/v1/cards?whole=3')).json.cards as { status: string }[]).filter((c) => c.status !== 'done');
  const codexSessions = () => kit.liveSessions((a) => a.app === 'codex');

  it('the hook trust review: Codex shows the new hooks, the person reviews the one that asks and trusts them; the next start asks no more and the hooks run', async () => {
    const trusted = await review();
    assert.deepEqual(trusted, ['permission_request', 'post_tool_use', 'session_end', 'session_start', 'stop', 'user_prompt_submit'], 'Codex kept the trust of each of Connect\'s six hooks');
    const { p } = await start([{ text: 'Nothing to do.' }]);
    await prompt(p, 'Hello.');
    await p.waitFor('Nothing to do.', 60_000);
    // Its hooks ran without any bypass: the session is live in the service.
    await until('the Codex session live', async () => (await codexSessions()).sessions.length === 1 || undefined, 30_000, 100);
    assert.doesNotMatch(p.output(), /Hooks need review/);
  });

  it('Approve on the card: the command runs and Codex\'s own prompt never shows', async () => {
    const command = `touch ${kit.marker()}`;
    const { p } = await start([{ bash: command, escalate: true }, { text: 'All done.' }]);
    await prompt(p, 'Do it.');
    const card = await kit.card('Codex\'s approval card');
    const shown = await kit.whole(card.id);
    assert.equal(shown.title, `Codex asks to run: ${firstWords(command)}`);
    assert.ok(shown.summary?.includes(command), shown.summary);
    // Codex waits on the hook while the card waits: its screen says so (drawn a moment after the card comes).
    await p.waitFor(/Running hook|Running/, 15_000);
    await kit.answer(card.id, { approved: true });
    await p.waitFor('All done.', 60_000);
    assert.ok(fs.existsSync(kit.marker()), 'Codex ran the approved command');
    assert.equal(p.output().includes(OWN_PROMPT), false, 'Codex\'s own prompt never showed');
    assert.equal((await kit.whole(card.id)).status, 'done');
  });

  it('Decline with a note: nothing runs, and the note reaches the model', async () => {
    const { p, model } = await start([{ bash: `touch ${kit.marker()}`, escalate: true }, { text: 'All done.' }]);
    await prompt(p, 'Do it.');
    const card = await kit.card('Codex\'s approval card');
    await kit.answer(card.id, { approved: false, note: { text: 'Not on a Friday, please.' } });
    await p.waitFor('All done.', 60_000);
    assert.equal(fs.existsSync(kit.marker()), false, 'the declined command did not run');
    assert.ok(model.seenText('openai').includes('Not on a Friday, please.'), 'the note reached the model');
    assert.equal(p.output().includes(OWN_PROMPT), false, 'Codex\'s own prompt never showed');
  });

  it('the wait runs out: the card is withdrawn and Codex\'s own prompt takes over in its terminal (not its automatic reviewer); the person answers there', async () => {
    const { p, model } = await start([{ bash: `touch ${kit.marker()}`, escalate: true }, { text: 'All done.' }]);
    await prompt(p, 'Do it.');
    const card = await kit.card('Codex\'s approval card');
    const closed = await kit.done(card.id, (WAIT_S + 15) * 1000);
    assert.notEqual(closed.closedBy, 'person', 'withdrawn, nobody answered for the person');
    const screen = await p.waitFor(OWN_PROMPT, 30_000);
    assert.match(screen, /1\. Yes, proceed \(y\)/);
    assert.equal(fs.existsSync(kit.marker()), false, 'nothing ran before the person answered');
    await p.press('y', 'All done.', 60_000);
    assert.ok(fs.existsSync(kit.marker()), 'the person\'s answer in the terminal ran it');
    // The automatic reviewer is a model sub-request of its own ("guardian"): none was made.
    assert.equal(model.requests.some((r) => JSON.stringify(r.body ?? '').includes('guardian')), false, 'no automatic review');
  });

  it('the session\'s end: the person quits Codex while a card waits; the card is withdrawn, nothing runs', async () => {
    const { p } = await start([{ bash: `touch ${kit.marker()}`, escalate: true }, { text: 'All done.' }]);
    await prompt(p, 'Do it.');
    const card = await kit.card('Codex\'s approval card');
    const live = (await codexSessions()).sessions;
    assert.ok(live.length >= 1, 'the session is live while its card waits');
    // Ctrl+C while the card waits: Codex cancels the request ("You canceled the request to run …")
    // or, a moment later in the turn, asks what to do with the running task; either way the person
    // then leaves Codex ("/quit", or the menu's "3. Exit").
    const stopped = await p.press(keys.ctrlC, /Conversation interrupted|Task is still running/, 30_000);
    if (stopped.includes('Task is still running')) {
      await p.press(keys.down, /› 2\. Run in background/);
      await p.press(keys.down, /› 3\. Exit\s+Stop the current task and exit Codex/);
    } else {
      await p.press('/quit', '/quit');
    }
    await enterAndGone(p);
    const quitAt = Date.now();
    const closed = await kit.done(card.id, 15_000);
    assert.notEqual(closed.closedBy, 'person');
    assert.equal(fs.existsSync(kit.marker()), false);
    // Codex's server keeps the thread for `thread_unload_delay_secs` (60 s by default, measured)
    // before its SessionEnd; the bridge watches the UI the session runs in, and ends it when the UI
    // is gone (ui-watch.ts). 20 s bounds a busy machine; it took 1-3 s here (docs/cli-hooks.md).
    await until('the session ended', async () => (await codexSessions()).sessions.length === 0 || undefined, 20_000, 100);
    console.log(`      (plain codex: the session left the live sessions ${Date.now() - quitAt} ms after the UI quit)`);
  });

  it('two UIs of one background server in one folder: each card\'s session names its own UI\'s terminal (pid, tty); the one quit ends, the other stays live', async () => {
    const command = `touch ${kit.marker()}`;
    const { p: first } = await start([{ bash: command, escalate: true }, { text: 'All done.' }]);
    const a = uiOf(first);
    await prompt(first, 'Do it.');
    const cardA = await kit.card('the first UI\'s card');
    const [sessionA] = (await codexSessions()).sessions as (LiveSession & { appSessionId: string; terminal?: { pid?: number; tty?: string } })[];
    assert.deepEqual([sessionA?.terminal?.pid, sessionA?.terminal?.tty], [a.pid, a.tty], 'the first card names the first UI\'s terminal, not the server\'s');
    await kit.answer(cardA.id, { approved: true });
    await first.waitFor('All done.', 60_000);
    // The second UI in the same folder, started after the first asked: its server is the first's.
    const other = second = startInPty([kit.bin], { cwd: kit.box.project, env: codexEnv() });
    await other.waitFor(READY, 120_000);
    const b = uiOf(other);
    assert.notEqual(b.tty, a.tty);
    await prompt(other, 'Do it.');
    await until('the second card', async () => (await openCards()).length === 1 || undefined, 60_000, 250);
    const both = (await codexSessions()).sessions as (LiveSession & { appSessionId: string; terminal?: { pid?: number; tty?: string } })[];
    const sessionB = both.find((s) => s.appSessionId !== sessionA!.appSessionId);
    assert.deepEqual([sessionB?.terminal?.pid, sessionB?.terminal?.tty], [b.pid, b.tty], 'the second card names the second UI\'s terminal');
    assert.deepEqual(both.find((s) => s.appSessionId === sessionA!.appSessionId)?.terminal?.pid, a.pid, 'the first session still names its own');
    // The second UI quits (its card withdrawn): its session ends, the first UI's stays live.
    await other.press(keys.ctrlC, /Conversation interrupted|Task is still running/, 30_000);
    if (other.screen.text().includes('Task is still running')) {
      await other.press(keys.down, /› 2\. Run in background/);
      await other.press(keys.down, /› 3\. Exit/);
      await enterAndGone(other, 'the second Codex to quit');
    } else {
      await quit(other);
    }
    await until('the second session ended', async () => {
      const live = (await codexSessions()).sessions as (LiveSession & { appSessionId: string })[];
      return live.every((s) => s.appSessionId !== sessionB!.appSessionId) || undefined;
    }, 20_000, 100);
    assert.deepEqual(((await codexSessions()).sessions as (LiveSession & { appSessionId: string })[]).map((s) => s.appSessionId), [sessionA!.appSessionId], 'the first UI\'s session is still live');
  });

  it('the session\'s end with `codex --no-daemon`: /quit fires SessionEnd and the session is no longer live', async () => {
    const { p } = await start([{ text: 'Nothing to do.' }], ['--no-daemon']);
    await prompt(p, 'Hello.');
    await p.waitFor('Nothing to do.', 60_000);
    await until('the Codex session live', async () => (await codexSessions()).sessions.length === 1 || undefined, 30_000, 100);
    await quit(p);
    await until('the session ended', async () => (await codexSessions()).sessions.length === 0 || undefined, 15_000, 100);
  });

  it('request_user_input (Plan mode): no hook can answer it, so no card claims it; Codex\'s own picker asks and the person\'s answer reaches the model', async () => {
    const questions = [{ id: 'color', header: 'Color', question: 'Which color?', options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] }];
    const { p, model } = await start([{ tool: 'request_user_input', input: { questions } }, { text: 'All done.' }]);
    // Shift+Tab: Codex's Plan mode, the only one where it offers the tool (Default mode refuses it).
    await plan(p);
    await prompt(p, 'Ask me.');
    const asked = await p.waitFor('Which color?', 60_000);
    assert.match(asked, /2\. Blue\s+cool/);
    assert.deepEqual(await openCards(), [], 'no card: PermissionRequest does not fire for it');
    await p.press(keys.down, /› 2\. Blue/);
    await p.press(keys.enter, 'All done.', 60_000);
    assert.ok(model.seenText('openai').includes('Blue'), 'the person\'s answer reached the model');
    assert.deepEqual(await openCards(), []);
  });
});
