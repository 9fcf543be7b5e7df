// "Always allow" with the real Claude Code (#54): Claude Code 2.1.332 (the test cache), connected as
// Connect sets it up, runs `npm run build` twice and then a different command, against a scripted
// model. The first asks: the card offers "Always allow: Bash(npm run *) in <the project's
// settings.local.json>", and the person presses it. Claude Code writes that rule itself, in the
// file the card named; the identical second call runs without a card; the different one still asks.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import type { RunningSandbox } from '../../src/sandbox';
import { makeBox, runClaude, type Box } from './cli-run';
import { entriesFor, hookCommand } from '../../src/bridge/connect-settings';
import { installHook } from '../../src/bridge/install';
import { startScriptedModel, type ScriptedModel } from './scripted-model';
import { signIn, startSandbox, type SignedIn } from '../sandbox/helpers';
import { until } from '../kit/until';

interface Installed { bin: string; version: string }
const installer = () => import(path.join(__dirname, '..', '..', 'scripts', 'install-clis.mjs')) as Promise<{ ensureClaudeCode(o?: { quiet?: boolean }): Installed }>;

interface WireCard { id: string; version: number; kind: string; title: string; summary?: string; status: string; options?: { id: string; label: string }[] }

describe('bridge: "Always allow" with the real Claude Code (#54)', function () {
  this.timeout(180_000);
  let bin = '';
  let bundleDir = '';
  let bridge = '';
  let box: Box;
  let sb: RunningSandbox;
  let person: SignedIn;
  let model: ScriptedModel | undefined;

  before(async function () {
    this.timeout(600_000); // a first install downloads about 400 MB from the npm registry
    bin = (await installer()).ensureClaudeCode({ quiet: true }).bin;
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-bundle-'));
    bridge = path.join(bundleDir, 'bridge.js');
    await build({ entryPoints: ['src/bridge/main.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bridge, logLevel: 'warning' });
  });
  after(() => fs.rmSync(bundleDir, { recursive: true, force: true }));
  beforeEach(async () => {
    box = makeBox('real-always-');
    sb = await startSandbox({ port: 0 });
    person = await signIn(sb.url);
    await (await fetch(`${sb.url}/_sandbox/hold`, { method: 'POST', headers: { authorization: `Bearer ${sb.controlSecret}`, 'content-type': 'application/json' }, body: JSON.stringify({ ms: 200 }) })).text();
    fs.writeFileSync(path.join(box.root, 'local-service.json'), JSON.stringify({ url: sb.url, askKey: sb.askKey, pid: process.pid }), { mode: 0o600 });
  });
  afterEach(async () => {
    await model?.close();
    model = undefined;
    await sb.close();
    box.dispose();
  });

  it('the person picks Always allow: the rule is written where the card said, the identical call is not asked again, a different one is', async () => {
    // `npm run build` leaves a mark each time it runs.
    const built = path.join(box.project, 'built.txt');
    fs.writeFileSync(path.join(box.project, 'package.json'), JSON.stringify({ name: 'shop', private: true, scripts: { build: 'node -e "require(\'fs\').appendFileSync(\'built.txt\', \'x\')"' } }));
    const other = path.join(box.project, 'other.txt');
    model = await startScriptedModel({ claude: [{ bash: 'npm run build' }, { bash: 'npm run build' }, { bash: `touch ${other}` }, { text: 'All done.' }] });
    const { launcher } = await installHook({ binDir: path.join(box.root, 'bin'), runtime: process.execPath, version: 'test', platform: process.platform, bridgeSource: bridge });
    const hooksJson = Object.fromEntries(Object.entries(entriesFor('claude-code', hookCommand(launcher, 'claude-code'))).map(([event, group]) => [event, [group]]));
    const done = runClaude({ bin, model, box, prompt: 'Build it twice, then touch a file.', hooksJson, timeoutMs: 150_000, env: { ASSISTANT_CARDS_HOME: box.root } });

    const approvals = async (status: string) => ((await person.request('GET', `/v1/cards?status=${status}&whole=3`)).json.cards as WireCard[]).filter((c) => c.kind === 'approval');
    const answer = async (c: WireCard, body: Record<string, unknown>) => {
      const r = await person.request('POST', `/v1/cards/${c.id}/answer`, { body: { version: c.version, ...body }, headers: { 'idempotency-key': `k-${c.id}` } });
      assert.equal(r.status, 200, r.text);
    };

    const first = await until('the first card', async () => (await approvals('pending'))[0], 90_000, 50);
    assert.equal(first.title, 'Claude Code asks to run: npm run build');
    const file = path.join(box.project, '.claude', 'settings.local.json');
    const label = `Always allow: Bash(npm run *) in ${file}`;
    assert.deepEqual(first.options, [{ id: 'always-allow-1', label }], 'the card names the rule and the settings file, whole');
    assert.ok(first.summary?.includes(`Settings file: ${file}`), first.summary);
    assert.equal(fs.existsSync(file), false, 'nothing written before the person chose');
    await answer(first, { approved: true, choiceIds: ['always-allow-1'] });

    // The different command still asks: its card is the second and last one.
    const second = await until('the different call\'s card', async () => (await approvals('pending')).find((c) => c.id !== first.id), 90_000, 50);
    assert.equal(second.title, `Claude Code asks to run: touch ${other}`);
    assert.equal(fs.readFileSync(built, 'utf8'), 'xx', 'both identical calls ran, the second without asking');
    await answer(second, { approved: true });
    const r = await done;
    assert.equal(r.timedOut, false, r.stderr.slice(-2000));
    assert.ok(fs.existsSync(other), 'the different call ran once approved');

    // Claude Code wrote the rule itself, in the file the card named.
    const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as { permissions?: { allow?: string[] } };
    assert.deepEqual(settings.permissions?.allow, ['Bash(npm run *)']);
    const all = [...await approvals('done'), ...await approvals('pending')];
    assert.deepEqual(all.map((c) => c.title).sort(), [first.title, second.title].sort(), 'two cards in all: the identical call asked nothing');
    assert.equal(JSON.parse(r.stdout).permission_denials.length, 0);
  });
});
