// The real Claude Code and Codex (scripts/install-clis.mjs, the test cache) ask the person through
// the bridge as Connect sets it up: the launcher and the bundled bridge.js installed in a bin/
// folder, the CLI's settings holding exactly Connect's entries; the local service makes the card, the person answers through the person's API as the extension does, and the CLI acts on
// that answer against the scripted model. A stand-in alone proves nothing about the CLIs.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import type { RunningSandbox } from '../../src/sandbox';
import { makeBox, runClaude, runCodex, type Box, type RunResult } from './cli-run';
import { entriesFor, hookCommand, type Cli } from '../../src/bridge/connect-settings';
import { installHook } from '../../src/bridge/install';
import { startScriptedModel, type ScriptedModel } from './scripted-model';
import { signIn, startSandbox, type SignedIn } from '../sandbox/helpers';
import { until } from '../kit/until';
import { firstWords } from '../../src/bridge/tool-input';

interface Installed { bin: string; version: string }
interface InstallClis { ensureClaudeCode(o?: { quiet?: boolean }): Installed; ensureCodex(o?: { quiet?: boolean }): Installed }
const installer = () => import(path.join(__dirname, '..', '..', 'scripts', 'install-clis.mjs')) as Promise<InstallClis>;

interface WireCard { id: string; version: number; kind: string; title: string; summary?: string; status: string }

function suite(name: string, o: { app: Cli; install(i: InstallClis): Installed; run(x: Parameters<typeof runClaude>[0]): Promise<RunResult>; kind: 'claude' | 'codex' }) {
  describe(`bridge: the real ${name} asks through a card`, function () {
    this.timeout(120_000);
    let bin = '';
    let bridge = '';
    let bundleDir = '';
    let box: Box;
    let sb: RunningSandbox;
    let person: SignedIn;
    let model: ScriptedModel | undefined;

    before(async function () {
      this.timeout(600_000); // a first install downloads about 400 MB from the npm registry
      bin = o.install(await installer()).bin;
      // The bridge as it ships: one bundle, run by plain Node.
      bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-bundle-'));
      bridge = path.join(bundleDir, 'bridge.js');
      await build({ entryPoints: ['src/bridge/main.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bridge, logLevel: 'warning' });
    });
    after(() => fs.rmSync(bundleDir, { recursive: true, force: true }));
    beforeEach(async () => {
      box = makeBox(`real-${o.kind}-`);
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

    /** Connect's entries for the launcher installed in the box; a test's wait shortens PermissionRequest's numbers only. */
    const hooks = async (waitS: number): Promise<Record<string, unknown>> => {
      const { launcher } = await installHook({ binDir: path.join(box.root, 'bin'), runtime: process.execPath, version: 'test', platform: process.platform, bridgeSource: bridge });
      const entries = entriesFor(o.app, hookCommand(launcher, o.app));
      const pr = entries.PermissionRequest!.hooks[0]!;
      pr.command = pr.command.replace(/--wait \d+$/, `--wait ${waitS}`);
      pr.timeout = waitS + 10;
      return Object.fromEntries(Object.entries(entries).map(([event, group]) => [event, [group]]));
    };
    let cliPid = 0;
    const run = (command: string, waitS = 60) => {
      model = undefined;
      return startScriptedModel({ [o.kind]: [{ bash: command, escalate: true }, { text: 'All done.' }] }).then(async (m) => {
        model = m;
        return o.run({ bin, model: m, box, prompt: 'Do it.', hooksJson: await hooks(waitS), timeoutMs: 100_000, env: { ASSISTANT_CARDS_HOME: box.root }, onSpawn: (pid) => { cliPid = pid; } });
      });
    };
    const approvalCard = () => until(`${name}'s approval card`, async () => {
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

    it('its command shows whole on the card, with the folder; Approve runs it', async () => {
      const command = `touch ${marker()}`;
      const done = run(command);
      const card = await approvalCard();
      const shown = await whole(card.id);
      assert.equal(shown.title, `${name} asks to run: ${firstWords(command)}`, 'the title names the command (#54)');
      assert.ok(shown.summary?.includes(command), `the whole command on the card: ${shown.summary}`);
      assert.ok(shown.summary?.includes(`In: ${fs.realpathSync(box.project)}`) || shown.summary?.includes(`In: ${box.project}`), shown.summary);
      const live = (await person.request('GET', '/v1/assistants')).json.assistants as { app: string; agents: { liveSessions: { cwd: string; terminal?: { pid?: number } }[] }[] }[];
      const sessions = live.find((a) => a.app === o.app)?.agents.flatMap((g) => g.liveSessions) ?? [];
      // The terminal's process is the CLI's own, not the short-lived shell it ran the hook in.
      assert.deepEqual(sessions.map((s) => s.terminal?.pid), [cliPid], `${name}'s session is live, reported as the CLI's process`);
      await answer(card.id, { approved: true });
      const r = await done;
      assert.equal(r.timedOut, false, r.stderr.slice(-2000));
      assert.ok(fs.existsSync(marker()), `${name} ran the approved command`);
      // Connect's timeouts are ones the CLI takes as they are (Codex clamps SessionEnd's to 3 s, with a warning).
      assert.doesNotMatch(r.stderr + r.stdout, /clamping/i, 'no hook timeout warning in the terminal');
      assert.equal((await whole(card.id)).status, 'done');
      const after = (await person.request('GET', '/v1/assistants')).json.assistants as typeof live;
      assert.deepEqual(after.find((a) => a.app === o.app)?.agents.flatMap((g) => g.liveSessions), [], 'SessionEnd ended the live session');
    });

    it('Decline with a note: nothing runs, and the note reaches the model', async () => {
      const done = run(`touch ${marker()}`);
      const card = await approvalCard();
      await answer(card.id, { approved: false, note: { text: 'Not on a Friday, please.' } });
      const r = await done;
      assert.equal(r.timedOut, false, r.stderr.slice(-2000));
      assert.equal(fs.existsSync(marker()), false, 'the declined command did not run');
      assert.ok(model!.seenText(o.kind === 'claude' ? 'anthropic' : 'openai').includes('Not on a Friday, please.'), 'the note reached the model');
    });

    it('F8: a Decline pressed in the undo hold as the hook\'s wait runs out reaches the model (#52)', async () => {
      // The hold outlasts the wait: pressed 1.5 s into a 3 s wait, the 4 s hold ends 2.5 s after it.
      const hold = await fetch(`${sb.url}/_sandbox/hold`, { method: 'POST', headers: { authorization: `Bearer ${sb.controlSecret}`, 'content-type': 'application/json' }, body: JSON.stringify({ ms: 4_000 }) });
      assert.equal(hold.status, 200);
      const done = run(`touch ${marker()}`, 3);
      const card = await approvalCard();
      await new Promise((r) => setTimeout(r, 1_500));
      await answer(card.id, { approved: false, note: { text: 'Declined in the last seconds.' } });
      const r = await done;
      assert.equal(r.timedOut, false, r.stderr.slice(-2000));
      assert.equal(fs.existsSync(marker()), false, 'the declined command did not run');
      assert.ok(model!.seenText(o.kind === 'claude' ? 'anthropic' : 'openai').includes('Declined in the last seconds.'), 'the decline, with its note, reached the model');
      assert.equal((await person.request('GET', `/v1/cards/${card.id}`)).json.card.closedBy, 'assistant', 'picked up, not withdrawn');
    });

    it('the hook\'s wait runs out: the card is withdrawn and the CLI decides by its own rule', async () => {
      const done = run(`touch ${marker()}`, 2);
      const card = await approvalCard();
      await until('the card withdrawn', async () => (await whole(card.id)).status === 'done' || undefined, 20_000, 50);
      const r = await done;
      assert.equal(r.timedOut, false, r.stderr.slice(-2000));
      assert.equal(fs.existsSync(marker()), false, 'nothing answered for the person');
      // Claude -p's own rule denies a command that needs approval; Codex hands it to its reviewer.
      const seen = model!.seenText(o.kind === 'claude' ? 'anthropic' : 'openai');
      assert.match(seen, o.kind === 'claude' ? /needs approval/ : /Rejected|review/i);
    });
  });
}

suite('Claude Code', { app: 'claude-code', kind: 'claude', install: (i) => i.ensureClaudeCode({ quiet: true }), run: runClaude });
suite('Codex', { app: 'codex', kind: 'codex', install: (i) => i.ensureCodex({ quiet: true }), run: runCodex });
