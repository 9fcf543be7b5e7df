// The real Gemini CLI (scripts/install-clis.mjs, the test cache) asks the person through the
// bridge as Connect sets it up: the launcher and the bundled bridge.js in a bin/ folder, Gemini's
// settings.json holding exactly Connect's entries (its adapter, src/bridge/clis/gemini-cli.ts),
// the scripted model answering as Gemini's API (GOOGLE_GEMINI_BASE_URL). `gemini -p` runs with
// `--approval-mode yolo`: non-interactive Gemini leaves out every tool that would ask, so the
// BeforeTool hook is the only gate here (docs/cli-hooks.md "Gemini CLI").
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import { runGemini } from './cli-run';
import { entriesFor, hookCommand } from '../../src/bridge/connect-settings';
import { startScriptedModel } from './scripted-model';
import { realCliKit, withWait } from './real-cli-kit';

describe('bridge: the real Gemini CLI asks through a card', function () {
  this.timeout(120_000);
  const kit = realCliKit({ prefix: 'real-gemini-', install: (i) => i.ensureGeminiCli({ quiet: true }) });

  /** Connect's entries for the launcher in the box; a test's wait shortens BeforeTool's numbers only. */
  const hooks = async (waitS: number): Promise<Record<string, unknown>> => {
    const launcher = await kit.launcher();
    const entries = entriesFor('gemini-cli', hookCommand(launcher, 'gemini-cli'));
    const asks = entries.BeforeTool!.hooks[0]!;
    asks.command = withWait(asks.command, waitS);
    asks.timeout = (waitS + 10) * 1000;
    return Object.fromEntries(Object.entries(entries).map(([event, group]) => [event, [group]]));
  };
  const run = async (command: string, waitS = 60) => {
    const model = kit.useModel(await startScriptedModel({ gemini: [{ bash: command }, { text: 'All done.' }] }));
    return runGemini({ bin: kit.bin, model, box: kit.box, prompt: 'Do it.', hooksJson: await hooks(waitS), timeoutMs: 100_000, env: { ASSISTANT_CARDS_HOME: kit.box.root } });
  };
  const approvalCard = () => kit.card('Gemini CLI\'s approval card');
  const { whole, answer, marker } = kit;
  const liveSessions = () => kit.liveSessions((a) => a.app === 'gemini-cli');

  it('its command shows whole on the card, naming Gemini CLI; Approve runs it; the session ends with the run', async () => {
    const command = `touch ${marker()}`;
    const done = run(command);
    const card = await approvalCard();
    const shown = await whole(card.id);
    assert.match(shown.title, /^Gemini CLI asks/);
    assert.ok(shown.summary?.includes(command), `the whole command on the card: ${shown.summary}`);
    assert.match(shown.summary ?? '', /run_shell_command/);
    const live = await liveSessions();
    assert.equal(live.name, 'Gemini CLI');
    assert.equal(live.sessions.length, 1, 'the session is live while it asks');
    await answer(card.id, { approved: true });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.ok(fs.existsSync(marker()), 'Gemini CLI ran the approved command');
    assert.equal((await whole(card.id)).status, 'done');
    assert.deepEqual((await liveSessions()).sessions, [], 'SessionEnd ended the live session');
  });

  it('with the hook host running (Linux): its events go through it, and Approve runs the command (#53)', async function () {
    await kit.approvedThroughHookHost(this, 'Gemini CLI', () => run(`touch ${marker()}`), approvalCard);
  });

  it('Decline with a note: nothing runs, and the note reaches the model', async () => {
    const done = run(`touch ${marker()}`);
    const card = await approvalCard();
    await answer(card.id, { approved: false, note: { text: 'Not on a Friday, please.' } });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.equal(fs.existsSync(marker()), false, 'the declined command did not run');
    assert.ok(kit.model!.seenText('gemini').includes('Not on a Friday, please.'), 'the note reached the model');
  });

  it('the hook\'s wait runs out: the card is withdrawn and Gemini\'s own rule decides (here yolo: it runs)', async () => {
    const done = run(`touch ${marker()}`, 2);
    const card = await approvalCard();
    await kit.done(card.id);
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    // Nothing answered for the person: the hook printed nothing, so Gemini went on by its own rule,
    // which under --approval-mode yolo runs the tool (in its default mode it asks in its terminal).
    assert.ok(fs.existsSync(marker()), 'Gemini\'s own rule (yolo) ran it');
  });
});
