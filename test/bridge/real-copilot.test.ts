// The real GitHub Copilot CLI (scripts/install-clis.mjs, the test cache) asks the person through
// the bridge: the launcher and the bundled bridge.js in a bin/ folder, Copilot's hook file holding
// the entries of its adapter (src/bridge/clis/copilot-cli.ts, copilotHookFile), the scripted model
// as Copilot's own provider (COPILOT_PROVIDER_BASE_URL, the Responses API). `copilot -p` asks
// nobody: without a hook answer its own rule refuses a command that needs permission.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import type { RunningSandbox } from '../../src/sandbox';
import { makeBox, runCopilot, type Box } from './cli-run';
import { hookCommand } from '../../src/bridge/connect-settings';
import { copilotHookFile } from '../../src/bridge/clis/copilot-cli';
import { installHook } from '../../src/bridge/install';
import { startScriptedModel, type ScriptedModel } from './scripted-model';
import { signIn, startSandbox, type SignedIn } from '../sandbox/helpers';
import { until } from '../kit/until';

interface Installed { bin: string; version: string }
interface InstallClis { ensureCopilotCli(o?: { quiet?: boolean }): Installed }
const installer = () => import(path.join(__dirname, '..', '..', 'scripts', 'install-clis.mjs')) as Promise<InstallClis>;

interface WireCard { id: string; version: number; kind: string; title: string; summary?: string; status: string }

describe('bridge: the real Copilot CLI asks through a card', function () {
  this.timeout(180_000);
  let bin = '';
  let bridge = '';
  let bundleDir = '';
  let box: Box;
  let sb: RunningSandbox;
  let person: SignedIn;
  let model: ScriptedModel | undefined;

  before(async function () {
    this.timeout(600_000);
    bin = (await installer()).ensureCopilotCli({ quiet: true }).bin;
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-bundle-'));
    bridge = path.join(bundleDir, 'bridge.js');
    await build({ entryPoints: ['src/bridge/main.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bridge, logLevel: 'warning' });
  });
  after(() => fs.rmSync(bundleDir, { recursive: true, force: true }));
  beforeEach(async () => {
    box = makeBox('real-copilot-');
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

  /** The adapter's hook file for the launcher in the box; a test's wait shortens permissionRequest's numbers only. */
  const hooks = async (waitS: number): Promise<Record<string, unknown>> => {
    const { launcher } = await installHook({ binDir: path.join(box.root, 'bin'), runtime: process.execPath, version: 'test', platform: process.platform, bridgeSource: bridge });
    const file = copilotHookFile(hookCommand(launcher, 'copilot-cli' as never));
    const asks = file.hooks.permissionRequest![0]!;
    asks.bash = asks.bash.replace(/--wait \d+$/, `--wait ${waitS}`);
    asks.timeoutSec = waitS + 10;
    return file;
  };
  const run = async (command: string, waitS = 60) => {
    model = await startScriptedModel({ codex: [{ tool: 'bash', input: { command, description: 'Touch a file' } }, { text: 'All done.' }] });
    return runCopilot({ bin, model, box, prompt: 'Do it.', hooksJson: await hooks(waitS), timeoutMs: 150_000, env: { ASSISTANT_CARDS_HOME: box.root } });
  };
  const approvalCard = () => until('Copilot CLI\'s approval card', async () => {
    const r = await person.request('GET', '/v1/cards?whole=3');
    const cards = r.json.cards as WireCard[] | undefined;
    if (!cards) throw new Error(`the cards list answered ${r.status}: ${r.text.slice(0, 300)}`);
    return cards.find((c) => c.kind === 'approval');
  }, 120_000, 200);
  const whole = async (id: string) => (await person.request('GET', `/v1/cards/${id}`)).json.card as WireCard;
  const answer = async (id: string, body: Record<string, unknown>) => {
    const c = await whole(id);
    const r = await person.request('POST', `/v1/cards/${id}/answer`, { body: { version: c.version, ...body }, headers: { 'idempotency-key': `k-${id}` } });
    assert.equal(r.status, 200, r.text);
  };
  const marker = () => path.join(box.root, 'ran.txt');
  const liveSessions = async () => {
    const list = (await person.request('GET', '/v1/assistants')).json.assistants as { app: string; name: string; agents: { liveSessions: unknown[] }[] }[];
    // The spec's app enum has no Copilot: the adapter registers it as `other`, named Copilot CLI.
    const mine = list.find((a) => a.app === 'other' && a.name === 'Copilot CLI');
    return { name: mine?.name, sessions: mine?.agents.flatMap((g) => g.liveSessions) ?? [] };
  };

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

  it('Decline with a note: nothing runs, and the note reaches the model', async () => {
    const done = run(`touch ${marker()}`);
    const card = await approvalCard();
    await answer(card.id, { approved: false, note: { text: 'Not on a Friday, please.' } });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.equal(fs.existsSync(marker()), false, 'the declined command did not run');
    assert.ok(model!.seenText('openai').includes('Not on a Friday, please.'), 'the note reached the model');
  });

  it('the hook\'s wait runs out: the card is withdrawn and Copilot\'s own rule decides (in -p: refused)', async () => {
    const done = run(`touch ${marker()}`, 2);
    const card = await approvalCard();
    await until('the card withdrawn', async () => (await whole(card.id)).status === 'done' || undefined, 30_000, 50);
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.equal(fs.existsSync(marker()), false, 'nothing answered for the person; -p refuses by itself');
  });
});
