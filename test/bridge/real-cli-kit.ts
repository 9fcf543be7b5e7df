// The set-up every plain-Node real-CLI test shares: the CLI installed from the registry into the
// test cache (scripts/install-clis.mjs), the bridge bundled as it ships (one bridge.js run by plain
// Node), and per test a fresh box (temp home and project), the local service on port 0 with a short
// undo hold, a person signed in, local-service.json in the bridge's home, and the scripted model
// closed after. `realCliKit` registers the mocha hooks in the calling `describe` and hands back the
// state and the person's side (the card, its whole form, an answer, the live sessions).
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import type { RunningSandbox } from '../../src/sandbox';
import { installHook } from '../../src/bridge/install';
import { makeBox, type Box, type RunResult } from './cli-run';
import { hookHostRuns, hookHostStatus, startHookHost } from './hook-host-status';
import type { ScriptedModel } from './scripted-model';
import { setHold, signIn, startSandbox, type SignedIn, type WireCard } from '../sandbox/helpers';
import { until } from '../kit/until';

export interface Installed { bin: string; version: string }
export interface InstallClis {
  ensureClaudeCode(o?: { quiet?: boolean }): Installed;
  ensureCodex(o?: { quiet?: boolean }): Installed;
  ensureGeminiCli(o?: { quiet?: boolean }): Installed;
  ensureCopilotCli(o?: { quiet?: boolean }): Installed;
  ensureOpenCode(o?: { quiet?: boolean }): Installed;
}
export const installer = () => import(path.join(__dirname, '..', '..', 'scripts', 'install-clis.mjs')) as Promise<InstallClis>;

export type { WireCard };
export interface LiveSession { cwd: string; terminal?: { pid?: number } }
interface WireAssistant { app: string; name: string; agents: { liveSessions: LiveSession[] }[] }

export interface RealCliKit {
  /** The installed CLI's executable (set in `before`). */
  readonly bin: string;
  /** This test's box, service and signed-in person (set in `beforeEach`). */
  readonly box: Box;
  readonly sb: RunningSandbox;
  readonly person: SignedIn;
  /** The scripted model of this test, closed in `afterEach`: set it with `useModel`. */
  readonly model: ScriptedModel | undefined;
  useModel(m: ScriptedModel): ScriptedModel;
  /** The launcher Connect installs (in the box's bin/, or `binDir`), running the bundled bridge. */
  launcher(binDir?: string): Promise<string>;
  /** The service's undo hold for this test (the kit sets 200 ms). */
  hold(ms: number): Promise<void>;
  /** The first card of `kind` the person sees, waited for up to `ms`. */
  card(what: string, o?: { kind?: string; ms?: number; everyMs?: number }): Promise<WireCard>;
  whole(id: string): Promise<WireCard>;
  /** The person's answer, on the card's current version. */
  answer(id: string, body: Record<string, unknown>): Promise<void>;
  /** Waits for the card to be done (answered, withdrawn or expired). */
  done(id: string, ms?: number): Promise<WireCard>;
  /** The live sessions of the assistant that `match` picks in /v1/assistants, and its name. */
  liveSessions(match: (a: { app: string; name: string }) => boolean): Promise<{ name: string | undefined; sessions: LiveSession[] }>;
  /** A file in the box a scripted command can touch: its presence says the command ran. */
  marker(): string;
  /**
   * The hook host of the box's bridge home (Linux with curl; else the test is skipped), started as
   * the launcher starts it, by one event it cannot use; resolves to a reader of how many events
   * it ran since.
   */
  hookHost(ctx: Mocha.Context): Promise<() => number>;
  /**
   * With the hook host running: the CLI's run (`run`, a command that touches `marker()`) asks,
   * its card (`card`) is approved, the command runs, and the host ran the session's events.
   */
  approvedThroughHookHost(ctx: Mocha.Context, name: string, run: () => Promise<RunResult>, card: () => Promise<WireCard>): Promise<void>;
}

/** A hook command whose `--wait N` (Connect's) is shortened to `waitS` for a test. */
export const withWait = (command: string, waitS: number): string => command.replace(/--wait \d+$/, `--wait ${waitS}`);

/**
 * The person's calls wait out the service's limits (429, Retry-After) a few times instead of
 * failing: the tests poll for a CLI's card, and a CLI slow to start on a busy machine let those
 * polls use the minute's reads up (the busy CI's Always-allow run: a 429 where a card was read).
 */
function waitingOutReadLimit(p: SignedIn): SignedIn {
  const request = p.request.bind(p);
  p.request = async (method, route, opts) => {
    for (let tries = 1; ; tries++) {
      const r = await request(method, route, opts);
      if (r.status !== 429 || tries >= 4) return r;
      const seconds = Number(r.headers.get('retry-after') ?? '1');
      await new Promise((done) => setTimeout(done, Math.min(Number.isFinite(seconds) ? seconds : 1, 30) * 1000));
    }
  };
  return p;
}

export function realCliKit(o: { prefix: string; install(i: InstallClis): Installed }): RealCliKit {
  let bin = '';
  let bridge = '';
  let bundleDir = '';
  let box: Box | undefined;
  let sb: RunningSandbox | undefined;
  let person: SignedIn | undefined;
  let model: ScriptedModel | undefined;
  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`the real-CLI kit has no ${what} outside a test`);
    return v;
  };

  before(async function () {
    this.timeout(600_000); // a first install downloads hundreds of MB from the npm registry
    bin = o.install(await installer()).bin;
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-bundle-'));
    bridge = path.join(bundleDir, 'bridge.js');
    await build({ entryPoints: ['src/bridge/main.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bridge, logLevel: 'warning' });
  });
  after(() => { if (bundleDir) fs.rmSync(bundleDir, { recursive: true, force: true }); });
  beforeEach(async () => {
    box = makeBox(o.prefix);
    sb = await startSandbox({ port: 0 });
    person = waitingOutReadLimit(await signIn(sb.url));
    await kit.hold(200);
    fs.writeFileSync(path.join(box.root, 'local-service.json'), JSON.stringify({ url: sb.url, askKey: sb.askKey, pid: process.pid }), { mode: 0o600 });
  });
  afterEach(async () => {
    await model?.close();
    model = undefined;
    await sb?.close();
    sb = undefined;
    box?.dispose();
    box = undefined;
  });

  const kit: RealCliKit = {
    get bin() { return bin; },
    get box() { return need(box, 'box'); },
    get sb() { return need(sb, 'service'); },
    get person() { return need(person, 'person'); },
    get model() { return model; },
    useModel(m) { model = m; return m; },
    async launcher(binDir) {
      return (await installHook({ binDir: binDir ?? path.join(kit.box.root, 'bin'), runtime: process.execPath, version: 'test', platform: process.platform, bridgeSource: bridge })).launcher;
    },
    async hold(ms) {
      await setHold(kit.sb, ms);
    },
    async hookHost(ctx) {
      if (!hookHostRuns()) ctx.skip();
      await kit.launcher();
      await startHookHost(kit.box.root);
      const served = () => {
        const n = hookHostStatus(kit.box.root)?.served;
        assert.ok(n !== undefined, 'the hook host still answers');
        return n;
      };
      const before = served();
      return () => served() - before;
    },
    async approvedThroughHookHost(ctx, name, run, card) {
      const served = await kit.hookHost(ctx);
      const done = run();
      await kit.answer((await card()).id, { approved: true });
      const r = await done;
      assert.equal(r.timedOut, false, r.stderr.slice(-2000));
      assert.ok(fs.existsSync(kit.marker()), `${name} ran the approved command: ${r.stdout.slice(-1000)}`);
      assert.ok(served() >= 2, `the host ran the session's events (${served()})`);
    },
    card: (what, c = {}) => until(what, async () => {
      const r = await kit.person.request('GET', '/v1/cards?whole=3');
      const cards = r.json.cards as WireCard[] | undefined;
      if (!cards) throw new Error(`the cards list answered ${r.status}: ${r.text.slice(0, 300)}`);
      return cards.find((x) => x.kind === (c.kind ?? 'approval'));
    }, c.ms ?? 60_000, c.everyMs ?? 250),
    whole: async (id) => {
      const r = await kit.person.request('GET', `/v1/cards/${id}`);
      // A refusal is said as the service said it (a card withdrawn, a limit), not as a missing field.
      if (r.status !== 200 || !r.json?.card) throw new Error(`GET /v1/cards/${id} answered ${r.status}: ${r.text.slice(0, 300)}`);
      return r.json.card as WireCard;
    },
    async answer(id, body) {
      const c = await kit.whole(id);
      const r = await kit.person.request('POST', `/v1/cards/${id}/answer`, { body: { version: c.version, ...body }, headers: { 'idempotency-key': `k-${id}` } });
      assert.equal(r.status, 200, r.text);
    },
    done: (id, ms = 20_000) => until(`card ${id} done`, async () => {
      const c = await kit.whole(id);
      return c.status === 'done' ? c : undefined;
    }, ms, 50),
    async liveSessions(match) {
      const list = (await kit.person.request('GET', '/v1/assistants')).json.assistants as WireAssistant[];
      const mine = list.find(match);
      return { name: mine?.name, sessions: mine?.agents.flatMap((g) => g.liveSessions) ?? [] };
    },
    marker: () => path.join(kit.box.root, 'ran.txt'),
  };
  return kit;
}
