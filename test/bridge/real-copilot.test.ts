// The real GitHub Copilot CLI (scripts/install-clis.mjs, the test cache) asks the person through
// the bridge: the launcher and the bundled bridge.js in a bin/ folder, Copilot's hook file holding
// the entries of its adapter (src/bridge/clis/copilot-cli.ts, copilotHookFile), the scripted model
// as Copilot's own provider (COPILOT_PROVIDER_BASE_URL, the Responses API). `copilot -p` asks
// nobody: without a hook answer its own rule refuses a command that needs permission.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import { runCopilot } from './cli-run';
import { hookCommand } from '../../src/bridge/connect-settings';
import { copilotHookFile } from '../../src/bridge/clis/copilot-cli';
import { startScriptedModel } from './scripted-model';
import { realCliKit, withWait } from './real-cli-kit';

describe('bridge: the real Copilot CLI asks through a card', function () {
  this.timeout(180_000);
  const kit = realCliKit({ prefix: 'real-copilot-', install: (i) => i.ensureCopilotCli({ quiet: true }) });

  /** The adapter's hook file for the launcher in the box; a test's wait shortens permissionRequest's numbers only. */
  const hooks = async (waitS: number): Promise<Record<string, unknown>> => {
    const launcher = await kit.launcher();
    const file = copilotHookFile(hookCommand(launcher, 'copilot-cli' as never));
    const asks = file.hooks.permissionRequest![0]!;
    asks.bash = withWait(asks.bash, waitS);
    asks.timeoutSec = waitS + 10;
    return file;
  };
  const run = async (command: string, waitS = 60) => {
    const model = kit.useModel(await startScriptedModel({ codex: [{ tool: 'bash', input: { command, description: 'Touch a file' } }, { text: 'All done.' }] }));
    return runCopilot({ bin: kit.bin, model, box: kit.box, prompt: 'Do it.', hooksJson: await hooks(waitS), timeoutMs: 150_000, env: { ASSISTANT_CARDS_HOME: kit.box.root } });
  };
  const approvalCard = () => kit.card('Copilot CLI\'s approval card', { ms: 120_000, everyMs: 200 });
  const { whole, answer, marker } = kit;
  // The spec's app enum has no Copilot: the adapter registers it as `other`, named Copilot CLI.
  const liveSessions = () => kit.liveSessions((a) => a.app === 'other' && a.name === 'Copilot CLI');

  it('its command shows whole on the card, naming Copilot CLI; Approve runs it; the session ends with the run', async () => {
    const command = `touch ${marker()}`;
    const done = run(command);
    const card = await approvalCard();
    const shown = await whole(card.id);
    assert.match(shown.title, /^Copilot CLI asks/);
    assert.ok(shown.summary?.includes(command), `the whole command on the card: ${shown.summary}`);
    const live = await liveSessions();
    assert.equal(live.name, 'Copilot CLI');
    assert.equal(live.sessions.length, 1, 'the session is live while it asks');
    await answer(card.id, { approved: true });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.ok(fs.existsSync(marker()), `Copilot CLI ran the approved command: ${r.stdout.slice(-1000)}`);
    assert.equal((await whole(card.id)).status, 'done');
    assert.deepEqual((await liveSessions()).sessions, [], 'sessionEnd ended the live session');
  });

  it('with the hook host running (Linux): its events go through it, and Approve runs the command (#53)', async function () {
    await kit.approvedThroughHookHost(this, 'Copilot CLI', () => run(`touch ${marker()}`), approvalCard);
  });

  it('Decline with a note: nothing runs, and the note reaches the model', async () => {
    const done = run(`touch ${marker()}`);
    const card = await approvalCard();
    await answer(card.id, { approved: false, note: { text: 'Not on a Friday, please.' } });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.equal(fs.existsSync(marker()), false, 'the declined command did not run');
    assert.ok(kit.model!.seenText('openai').includes('Not on a Friday, please.'), 'the note reached the model');
  });

  it('the hook\'s wait runs out: the card is withdrawn and Copilot\'s own rule decides (in -p: refused)', async () => {
    const done = run(`touch ${marker()}`, 2);
    const card = await approvalCard();
    await kit.done(card.id, 30_000);
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.equal(fs.existsSync(marker()), false, 'nothing answered for the person; -p refuses by itself');
  });
});
