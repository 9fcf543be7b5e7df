// The real OpenCode (scripts/install-clis.mjs, the test cache) asks the person through the bridge:
// Connect's plugin file (src/bridge/clis/opencode.ts) in OpenCode's config folder, naming the
// launcher and the bundled bridge.js in a bin/ folder; the scripted model as an OpenAI-compatible
// provider of OpenCode's config (the Responses API, whose steps scripted-model.ts takes as `codex`).
// OpenCode runs headless (`opencode serve`), driven over its own server as its terminal UI drives
// it: a session, a prompt, and OpenCode's own prompt for a permission is its server's pending request.
// One OpenCode, service and box serve the whole file (each test a session of its own): starting
// OpenCode costs 20-50 s of CPU here, so the shared kit's fresh box per test (real-cli-kit.ts) is
// not used, only its installer and types.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { RunningSandbox } from '../../src/sandbox';
import { makeBox, type Box } from './cli-run';
import type { ScriptedModel } from './scripted-model';
import type { SignedIn } from '../sandbox/helpers';
import { until } from '../kit/until';
import { installer, type WireCard } from './real-cli-kit';
import { hookHostRuns, hookHostStatus, startHookHost } from './hook-host-status';
import { keepOpenCodePackages, startOpenCodeWorld } from './opencode-setup';

interface Pending { id: string; sessionID: string; permission: string }

/** The card's wait in these tests (Connect's plugin says 110 s): long enough to answer, short enough to run out. */
const WAIT_S = 12;

describe('bridge: the real OpenCode asks through a card', function () {
  this.timeout(240_000);
  let box: Box;
  let sb: RunningSandbox;
  let person: SignedIn;
  let model: ScriptedModel;
  let opencode: ChildProcess;
  let server = '';
  let logs = '';
  const marker = () => path.join(box.project, 'ran.txt');

  before(async function () {
    this.timeout(600_000);
    const bin = (await installer()).ensureOpenCode({ quiet: true }).bin;
    box = makeBox('real-opencode-');
    let env: NodeJS.ProcessEnv;
    ({ sb, person, model, env } = await startOpenCodeWorld(box, { marker: marker(), waitS: WAIT_S }));
    opencode = spawn(bin, ['serve', '--port', '0', '--hostname', '127.0.0.1'], { cwd: box.project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    opencode.stderr!.on('data', (d: Buffer) => { logs += String(d); });
    server = await new Promise<string>((resolve, reject) => {
      opencode.once('exit', (code) => reject(new Error(`opencode serve exited (${code}): ${logs.slice(-2000)}`)));
      opencode.stdout!.on('data', (d: Buffer) => {
        logs += String(d);
        const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(logs);
        if (m) resolve(m[1]!);
      });
    });
  });
  after(async () => {
    if (opencode && opencode.exitCode === null) {
      opencode.kill('SIGTERM');
      await new Promise((r) => { opencode.once('exit', r); setTimeout(r, 5000); });
    }
    await model?.close();
    await sb?.close();
    if (box) await keepOpenCodePackages(box);
    box?.dispose();
  });
  afterEach(() => fs.rmSync(marker(), { force: true }));

  /** OpenCode's server, for this project's folder. */
  const oc = async (method: string, route: string, body?: unknown): Promise<unknown> => {
    const r = await fetch(`${server}${route}${route.includes('?') ? '&' : '?'}directory=${encodeURIComponent(box.project)}`, {
      method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    assert.ok(r.ok, `${method} ${route}: ${r.status} ${await r.clone().text()}`);
    const text = await r.text();
    return text ? JSON.parse(text) : undefined;
  };
  /** A new session asked to do it: the model's first step is the command, which OpenCode asks about. */
  const ask = async (): Promise<string> => {
    const session = await oc('POST', '/session', {}) as { id: string };
    await oc('POST', `/session/${session.id}/prompt_async`, { parts: [{ type: 'text', text: 'Do it.' }] });
    return session.id;
  };
  const pending = async (sessionId: string) => (await oc('GET', '/permission') as Pending[]).filter((p) => p.sessionID === sessionId);
  const idle = (sessionId: string) => until('the session idle', async () => {
    const status = await oc('GET', '/session/status') as Record<string, { type: string }>;
    return (status[sessionId]?.type ?? 'idle') === 'idle' || undefined;
  }, 60_000, 200);
  // Polled gently: the sandbox limits reads as the service does.
  const cards = async () => {
    const r = await person.request('GET', '/v1/cards?whole=3');
    const list = r.json.cards as WireCard[] | undefined;
    if (!list) throw new Error(`the cards list answered ${r.status}: ${r.text.slice(0, 300)}`);
    return list;
  };
  const approvalCard = (seen: Set<string>) => until('OpenCode\'s approval card', async () => (await cards()).find((c) => c.kind === 'approval' && c.status === 'pending' && !seen.has(c.id)), 120_000, 500);
  const whole = async (id: string) => (await person.request('GET', `/v1/cards/${id}`)).json.card as WireCard;
  const answer = async (id: string, body: Record<string, unknown>) => {
    const c = await whole(id);
    const r = await person.request('POST', `/v1/cards/${id}/answer`, { body: { version: c.version, ...body }, headers: { 'idempotency-key': `k-${id}` } });
    assert.equal(r.status, 200, r.text);
  };
  const withdrawn = (id: string, withinMs: number) => until('the card withdrawn', async () => (await whole(id)).status === 'done' || undefined, withinMs, 250);
  const liveSessions = async () => {
    const list = (await person.request('GET', '/v1/assistants')).json.assistants as { app: string; name: string; agents: { liveSessions: { appSessionId?: string }[] }[] }[];
    return list.find((a) => a.app === 'opencode')?.agents.flatMap((g) => g.liveSessions) ?? [];
  };
  const seen = new Set<string>();
  /** A new session asks (ask), and its approval card, one no test has taken yet. */
  const askedCard = async (): Promise<{ session: string; card: WireCard }> => {
    const session = await ask();
    const card = await approvalCard(seen);
    seen.add(card.id);
    return { session, card };
  };
  /** The person rejects in OpenCode's own prompt (its terminal UI posts this reply). */
  const rejectInOpenCode = (requestId: string) => oc('POST', `/permission/${requestId}/reply`, { reply: 'reject' });
  const sessionEnded = (session: string, withinMs: number, everyMs: number) =>
    until('the session ended', async () => !(await liveSessions()).some((s) => s.appSessionId === session) || undefined, withinMs, everyMs);

  it('its command shows whole on the card, naming OpenCode; Approve replies "once" and the command runs', async () => {
    const { session, card } = await askedCard();
    const shown = await whole(card.id);
    assert.match(shown.title, /^OpenCode asks/);
    assert.ok(shown.summary?.includes(`touch ${marker()}`), `the whole command on the card: ${shown.summary}`);
    assert.equal((await pending(session)).length, 1, 'OpenCode waits on its permission meanwhile');
    await answer(card.id, { approved: true });
    await idle(session);
    assert.ok(fs.existsSync(marker()), `OpenCode ran the approved command\n${logs.slice(-2000)}`);
    assert.equal((await whole(card.id)).status, 'done');
    assert.deepEqual(await pending(session), []);
  });

  it('Decline with a note: OpenCode rejects, nothing runs, and the note reaches the model', async () => {
    // Linux with curl: the plugin's hook command hands this permission to the hook host (#53), the
    // one the first test's event started (or one started here when this test runs alone).
    const hosted = hookHostRuns();
    const servedBefore = hosted ? (hookHostStatus(box.root) ?? await startHookHost(box.root)).served : undefined;
    const { session, card } = await askedCard();
    if (hosted) assert.ok(hookHostStatus(box.root)!.served > servedBefore!, 'the hook host ran this permission');
    await answer(card.id, { approved: false, note: { text: 'Not on a Friday, please.' } });
    await idle(session);
    assert.equal(fs.existsSync(marker()), false, 'the declined command did not run');
    assert.ok(model.seenText('openai').includes('Not on a Friday, please.'), 'the note reached the model');
  });

  it('the wait runs out: the card is withdrawn and OpenCode\'s own prompt still waits, then decides', async () => {
    const { session, card } = await askedCard();
    const asked = Date.now();
    await withdrawn(card.id, (WAIT_S + 15) * 1000);
    assert.ok(Date.now() - asked > (WAIT_S - 3) * 1000, 'withdrawn when the wait ran out, not before');
    const left = await pending(session);
    assert.equal(left.length, 1, 'nothing was replied for the person: OpenCode\'s own prompt still waits');
    await rejectInOpenCode(left[0]!.id);
    await idle(session);
    assert.equal(fs.existsSync(marker()), false);
  });

  it('answered in OpenCode\'s own prompt while the card waits: the card is withdrawn at once', async () => {
    const { session, card } = await askedCard();
    const [request] = await pending(session);
    await rejectInOpenCode(request!.id);
    await withdrawn(card.id, (WAIT_S - 4) * 1000);
    await idle(session);
    assert.equal(fs.existsSync(marker()), false);
  });

  it('the session\'s end (deleted in OpenCode) ends it for the service and withdraws its card', async () => {
    const { session, card } = await askedCard();
    assert.ok((await liveSessions()).some((s) => s.appSessionId === session), 'the session is live while it asks');
    await oc('DELETE', `/session/${session}`);
    await withdrawn(card.id, (WAIT_S - 4) * 1000);
    await sessionEnded(session, (WAIT_S - 4) * 1000, 100);
  });

  // Last: it stops OpenCode.
  it('OpenCode stopping (SIGINT, as Ctrl+C): the sessions that asked end and their cards are withdrawn', async () => {
    const { session, card } = await askedCard();
    const stoppedAt = Date.now();
    opencode.kill('SIGINT');
    await withdrawn(card.id, (WAIT_S - 4) * 1000);
    assert.ok(Date.now() - stoppedAt < (WAIT_S - 4) * 1000, 'withdrawn by OpenCode stopping, not by the wait');
    await sessionEnded(session, 10_000, 250);
  });
});
