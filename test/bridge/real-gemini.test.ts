// The real Gemini CLI (scripts/install-clis.mjs, the test cache) asks the person through the
// bridge as Connect sets it up: the launcher and the bundled bridge.js in a bin/ folder, Gemini's
// settings.json holding exactly Connect's entries (its adapter, src/bridge/clis/gemini-cli.ts),
// the scripted model answering as Gemini's API (GOOGLE_GEMINI_BASE_URL). `gemini -p` runs with
// `--approval-mode yolo`: non-interactive Gemini leaves out every tool that would ask, so the
// BeforeTool hook is the only gate here (docs/cli-hooks.md "Gemini CLI").
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import type { RunningSandbox } from '../../src/sandbox';
import { makeBox, runGemini, type Box } from './cli-run';
import { entriesFor, hookCommand } from '../../src/bridge/connect-settings';
import { installHook } from '../../src/bridge/install';
import { startScriptedModel, type ScriptedModel } from './scripted-model';
import { signIn, startSandbox, type SignedIn } from '../sandbox/helpers';
import { until } from '../kit/until';

interface Installed { bin: string; version: string }
interface InstallClis { ensureGeminiCli(o?: { quiet?: boolean }): Installed }
const installer = () => import(path.join(__dirname, '..', '..', 'scripts', 'install-clis.mjs')) as Promise<InstallClis>;

interface WireCard { id: string; version: number; kind: string; title: string; summary?: string; status: string }

describe('bridge: the real Gemini CLI asks through a card', function () {
  this.timeout(120_000);
  let bin = '';
  let bridge = '';
  let bundleDir = '';
  let box: Box;
  let sb: RunningSandbox;
  let person: SignedIn;
  let model: ScriptedModel | undefined;

  before(async function () {
    this.timeout(600_000);
    bin = (await installer()).ensureGeminiCli({ quiet: true }).bin;
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-bundle-'));
    bridge = path.join(bundleDir, 'bridge.js');
    await build({ entryPoints: ['src/bridge/main.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bridge, logLevel: 'warning' });
  });
  after(() => fs.rmSync(bundleDir, { recursive: true, force: true }));
  beforeEach(async () => {
    box = makeBox('real-gemini-');
    sb = await startSandbox({ port: 0 });
    person = await signIn(sb.url);
    const hold = await fetch(`${sb.url}/_sandbox/hold`, { method: 'POST', headers: { authorization: `Bearer ${sb.controlSecret}`, 'content-type': 'application/json' }, body: JSON.stringify({ ms: 200 }) });
    assert.equal(hold.status, 200);
    fs.writeFileSync(path.join(box.root, 'local-service.json'), JSON.stringify({ url: sb.url, askKey: sb.askKey, pid: process.pid }), { mode: 0o600 });
  });
  afterEach(async () => {
    await model?.close();
    model = undefined;
    await sb.close();
    box.dispose();
  });

  /** Connect's entries for the launcher in the box; a test's wait shortens BeforeTool's numbers only. */
  const hooks = async (waitS: number): Promise<Record<string, unknown>> => {
    const { launcher } = await installHook({ binDir: path.join(box.root, 'bin'), runtime: process.execPath, version: 'test', platform: process.platform, bridgeSource: bridge });
    const entries = entriesFor('gemini-cli', hookCommand(launcher, 'gemini-cli'));
    const asks = entries.BeforeTool!.hooks[0]!;
    asks.command = asks.command.replace(/--wait \d+$/, `--wait ${waitS}`);
    asks.timeout = (waitS + 10) * 1000;
    return Object.fromEntries(Object.entries(entries).map(([event, group]) => [event, [group]]));
  };
  const run = async (command: string, waitS = 60) => {
    model = await startScriptedModel({ gemini: [{ bash: command }, { text: 'All done.' }] });
    return runGemini({ bin, model, box, prompt: 'Do it.', hooksJson: await hooks(waitS), timeoutMs: 100_000, env: { ASSISTANT_CARDS_HOME: box.root } });
  };
  const approvalCard = () => until('Gemini CLI\'s approval card', async () => {
    const cards = (await person.request('GET', '/v1/cards?whole=3')).json.cards as WireCard[];
    return cards.find((c) => c.kind === 'approval');
  }, 60_000, 50);
  const whole = async (id: string) => (await person.request('GET', `/v1/cards/${id}`)).json.card as WireCard;
  const answer = async (id: string, body: Record<string, unknown>) => {
    const c = await whole(id);
    const r = await person.request('POST', `/v1/cards/${id}/answer`, { body: { version: c.version, ...body }, headers: { 'idempotency-key': `k-${id}` } });
    assert.equal(r.status, 200, r.text);
  };
  const marker = () => path.join(box.root, 'ran.txt');
  const liveSessions = async () => {
    const list = (await person.request('GET', '/v1/assistants')).json.assistants as { app: string; name: string; agents: { liveSessions: { cwd: string }[] }[] }[];
    const mine = list.find((a) => a.app === 'gemini-cli');
    return { name: mine?.name, sessions: mine?.agents.flatMap((g) => g.liveSessions) ?? [] };
  };

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

  it('Decline with a note: nothing runs, and the note reaches the model', async () => {
    const done = run(`touch ${marker()}`);
    const card = await approvalCard();
    await answer(card.id, { approved: false, note: { text: 'Not on a Friday, please.' } });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.equal(fs.existsSync(marker()), false, 'the declined command did not run');
    assert.ok(model!.seenText('gemini').includes('Not on a Friday, please.'), 'the note reached the model');
  });

  it('the hook\'s wait runs out: the card is withdrawn and Gemini\'s own rule decides (here yolo: it runs)', async () => {
    const done = run(`touch ${marker()}`, 2);
    const card = await approvalCard();
    await until('the card withdrawn', async () => (await whole(card.id)).status === 'done' || undefined, 20_000, 50);
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    // Nothing answered for the person: the hook printed nothing, so Gemini went on by its own rule,
    // which under --approval-mode yolo runs the tool (in its default mode it asks in its terminal).
    assert.ok(fs.existsSync(marker()), 'Gemini\'s own rule (yolo) ran it');
  });
});
