// The real Claude Code and Codex (scripts/install-clis.mjs, the test cache) ask the person through
// the bridge as Connect sets it up: the launcher and the bundled bridge.js installed in a bin/
// folder, the CLI's settings holding exactly Connect's entries; the local service makes the card, the person answers through the person's API as the extension does, and the CLI acts on
// that answer against the scripted model. A stand-in alone proves nothing about the CLIs.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import { runClaude, runCodex, type RunResult } from './cli-run';
import { entriesFor, hookCommand, type Cli } from '../../src/bridge/connect-settings';
import { startScriptedModel } from './scripted-model';
import { realCliKit, withWait, type InstallClis, type Installed } from './real-cli-kit';
import { firstWords } from '../../src/bridge/tool-input';
import { until } from '../kit/until';

function suite(name: string, o: { app: Cli; install(i: InstallClis): Installed; run(x: Parameters<typeof runClaude>[0]): Promise<RunResult>; kind: 'claude' | 'codex' }) {
  describe(`bridge: the real ${name} asks through a card`, function () {
    this.timeout(120_000);
    const kit = realCliKit({ prefix: `real-${o.kind}-`, install: o.install });

    /** Connect's entries for the launcher installed in the box; a test's wait shortens PermissionRequest's numbers only. */
    const hooks = async (waitS: number): Promise<Record<string, unknown>> => {
      const entries = entriesFor(o.app, hookCommand(await kit.launcher(), o.app));
      const pr = entries.PermissionRequest!.hooks[0]!;
      pr.command = withWait(pr.command, waitS);
      pr.timeout = waitS + 10;
      return Object.fromEntries(Object.entries(entries).map(([event, group]) => [event, [group]]));
    };
    let cliPid = 0;
    const run = async (command: string, waitS = 60) => {
      const model = kit.useModel(await startScriptedModel({ [o.kind]: [{ bash: command, escalate: true }, { text: 'All done.' }] }));
      return o.run({ bin: kit.bin, model, box: kit.box, prompt: 'Do it.', hooksJson: await hooks(waitS), timeoutMs: 100_000, env: { ASSISTANT_CARDS_HOME: kit.box.root }, onSpawn: (pid) => { cliPid = pid; } });
    };
    const approvalCard = () => kit.card(`${name}'s approval card`);
    const { whole, answer, marker } = kit;
    const live = () => kit.liveSessions((a) => a.app === o.app);

    it('its command shows whole on the card, with the folder; Approve runs it', async () => {
      const command = `touch ${marker()}`;
      const done = run(command);
      const card = await approvalCard();
      const shown = await whole(card.id);
      assert.equal(shown.title, `${name} asks to run: ${firstWords(command)}`, 'the title names the command (#54)');
      assert.ok(shown.summary?.includes(command), `the whole command on the card: ${shown.summary}`);
      assert.ok(shown.summary?.includes(`In: ${fs.realpathSync(kit.box.project)}`) || shown.summary?.includes(`In: ${kit.box.project}`), shown.summary);
      const { sessions } = await live();
      // The terminal's process is the CLI's own, not the short-lived shell it ran the hook in.
      assert.deepEqual(sessions.map((s) => s.terminal?.pid), [cliPid], `${name}'s session is live, reported as the CLI's process`);
      await answer(card.id, { approved: true });
      const r = await done;
      assert.equal(r.timedOut, false, r.stderr.slice(-2000));
      assert.ok(fs.existsSync(marker()), `${name} ran the approved command`);
      // Connect's timeouts are ones the CLI takes as they are (Codex clamps SessionEnd's to 3 s, with a warning).
      assert.doesNotMatch(r.stderr + r.stdout, /clamping/i, 'no hook timeout warning in the terminal');
      assert.equal((await whole(card.id)).status, 'done');
      const after = await live();
      assert.ok(after.name, `${name} is still listed`);
      assert.deepEqual(after.sessions, [], 'SessionEnd ended the live session');
    });

    it('with the hook host running (Linux): its events go through it, the session is the CLI\'s process, and Approve runs the command (#53)', async function () {
      const served = await kit.hookHost(this);
      const command = `touch ${marker()}`;
      const done = run(command);
      const card = await approvalCard();
      assert.ok((await whole(card.id)).summary?.includes(command));
      assert.deepEqual((await live()).sessions.map((s) => s.terminal?.pid), [cliPid], 'named by the CLI\'s process, as a hook of its own finds it');
      await answer(card.id, { approved: true });
      const r = await done;
      assert.equal(r.timedOut, false, r.stderr.slice(-2000));
      assert.ok(fs.existsSync(marker()), `${name} ran the approved command`);
      assert.ok(served() >= 2, `the host ran the session's events (${served()})`);
    });

    it('Decline with a note: nothing runs, and the note reaches the model', async () => {
      const done = run(`touch ${marker()}`);
      const card = await approvalCard();
      await answer(card.id, { approved: false, note: { text: 'Not on a Friday, please.' } });
      const r = await done;
      assert.equal(r.timedOut, false, r.stderr.slice(-2000));
      assert.equal(fs.existsSync(marker()), false, 'the declined command did not run');
      assert.ok(kit.model!.seenText(o.kind === 'claude' ? 'anthropic' : 'openai').includes('Not on a Friday, please.'), 'the note reached the model');
    });

    it('F8: a Decline pressed in the undo hold as the hook\'s wait runs out reaches the model (#52)', async () => {
      // The hold outlasts the wait: pressed 1.5 s into a 3 s wait, the 4 s hold ends 2.5 s after it.
      await kit.hold(4_000);
      const done = run(`touch ${marker()}`, 3);
      const card = await approvalCard();
      await new Promise((r) => setTimeout(r, 1_500));
      await answer(card.id, { approved: false, note: { text: 'Declined in the last seconds.' } });
      const r = await done;
      assert.equal(r.timedOut, false, r.stderr.slice(-2000));
      assert.equal(fs.existsSync(marker()), false, 'the declined command did not run');
      assert.ok(kit.model!.seenText(o.kind === 'claude' ? 'anthropic' : 'openai').includes('Declined in the last seconds.'), 'the decline, with its note, reached the model');
      assert.equal((await whole(card.id)).closedBy, 'assistant', 'picked up, not withdrawn');
    });

    // Claude Code only: Codex's session end is real-codex-tui.test.ts's (its `exec` ends a session only at the turn's end).
    if (o.kind === 'claude') it('the session ends while a card waits (Claude Code stopped, as Ctrl+C): SessionEnd ends it in the service and the card is withdrawn', async () => {
      const done = run(`touch ${marker()}`);
      const card = await approvalCard();
      assert.deepEqual((await live()).sessions.map((s) => s.terminal?.pid), [cliPid], 'the session is live while its card waits');
      process.kill(cliPid, 'SIGINT');
      const r = await done;
      assert.equal(r.timedOut, false, r.stderr.slice(-2000));
      const closed = await kit.done(card.id, 15_000);
      assert.notEqual(closed.closedBy, 'person', 'withdrawn: nobody answered for the person');
      assert.equal(fs.existsSync(marker()), false, 'nothing ran');
      // Only SessionEnd ends a Claude Code session in the service (its hooks name no process to watch).
      await until('the session no longer live', async () => (await live()).sessions.length === 0 || undefined, 15_000, 100);
      assert.ok((await live()).name, `${name} is still listed, with no live session`);
    });

    it('the hook\'s wait runs out: the card is withdrawn and the CLI decides by its own rule', async () => {
      const done = run(`touch ${marker()}`, 2);
      const card = await approvalCard();
      await kit.done(card.id);
      const r = await done;
      assert.equal(r.timedOut, false, r.stderr.slice(-2000));
      assert.equal(fs.existsSync(marker()), false, 'nothing answered for the person');
      // Claude -p's own rule denies a command that needs approval; Codex hands it to its reviewer.
      const seen = kit.model!.seenText(o.kind === 'claude' ? 'anthropic' : 'openai');
      assert.match(seen, o.kind === 'claude' ? /needs approval/ : /Rejected|review/i);
    });
  });
}

suite('Claude Code', { app: 'claude-code', kind: 'claude', install: (i) => i.ensureClaudeCode({ quiet: true }), run: runClaude });
suite('Codex', { app: 'codex', kind: 'codex', install: (i) => i.ensureCodex({ quiet: true }), run: runCodex });
