// The real OpenCode (1.18.33, the test cache) as people run it: its terminal UI, in a
// pseudo-terminal (pty-screen.ts), against the scripted model, with Connect's plugin in its config
// folder (opencode-setup.ts). The plugin runs inside the UI's own in-process server: each
// permission OpenCode asks becomes a card, and the person's answer on the card is OpenCode's
// reply (once, or reject with the note) while OpenCode's own prompt shows beside it in the
// terminal. OpenCode's "Allow always" is not on the card (it writes a rule: only the person's own
// choice in the terminal may). One UI serves the whole file, each test a session of its own
// (`/new`): the UI's first prompt costs minutes of CPU here (docs/cli-hooks.md).
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import type { RunningSandbox } from '../../src/sandbox';
import { makeBox, type Box } from './cli-run';
import type { ScriptedModel } from './scripted-model';
import type { SignedIn } from '../sandbox/helpers';
import { until } from '../kit/until';
import { installer, type WireCard } from './real-cli-kit';
import { keepOpenCodePackages, startOpenCodeWorld } from './opencode-setup';
import { keys, startInPty, type PtyProgram } from './pty-screen';

/** The card's wait here (Connect's plugin says 110 s): these tests answer well inside it. */
const WAIT_S = 90;
/** OpenCode's own prompt for a permission, in its terminal. */
const OWN_PROMPT = 'Permission required';
const OWN_CHOICES = /Allow once\s+Allow always\s+Reject/;
/** The UI ready for a prompt: its prompt box names the agent and the model. */
const READY = 'Build · m1';

describe('bridge: the real OpenCode terminal UI asks through a card (pty)', function () {
  this.timeout(300_000);
  let box: Box;
  let sb: RunningSandbox;
  let person: SignedIn;
  let model: ScriptedModel;
  let ui: PtyProgram | undefined;
  const marker = () => path.join(box.project, 'ran.txt');
  const seen = new Set<string>();

  before(async function () {
    this.timeout(900_000);
    const bin = (await installer()).ensureOpenCode({ quiet: true }).bin;
    box = makeBox('real-opencode-tui-');
    let env: NodeJS.ProcessEnv;
    ({ sb, person, model, env } = await startOpenCodeWorld(box, { marker: marker(), waitS: WAIT_S }));
    // The UI's start: minutes of CPU on two busy cores (its server; its config folder's packages too
    // when the test cache has none for them: opencode-packages.ts).
    ui = startInPty([bin, box.project], { cwd: box.project, env });
    await ui.waitFor(READY, 540_000);
  });
  after(async () => {
    ui?.kill();
    if (ui) await Promise.race([ui.exited, new Promise((r) => setTimeout(r, 5_000))]);
    await model?.close();
    await sb?.close();
    if (box) await keepOpenCodePackages(box);
    box?.dispose();
  });
  afterEach(() => fs.rmSync(marker(), { force: true }));

  const cards = async () => {
    const r = await person.request('GET', '/v1/cards?whole=3');
    const list = r.json.cards as WireCard[] | undefined;
    if (!list) throw new Error(`the cards list answered ${r.status}: ${r.text.slice(0, 300)}`);
    return list;
  };
  /** The next new approval card; its wait's bound is the UI's first prompt (minutes on two busy cores). */
  const approvalCard = async (ms: number) => {
    const card = await until('OpenCode\'s approval card', async () => (await cards()).find((c) => c.kind === 'approval' && c.status === 'pending' && !seen.has(c.id)), ms, 500);
    seen.add(card.id);
    return card;
  };
  const whole = async (id: string) => (await person.request('GET', `/v1/cards/${id}`)).json.card as WireCard;
  const answer = async (id: string, body: Record<string, unknown>) => {
    const c = await whole(id);
    const r = await person.request('POST', `/v1/cards/${id}/answer`, { body: { version: c.version, ...body }, headers: { 'idempotency-key': `k-${id}` } });
    assert.equal(r.status, 200, r.text);
  };
  const done = (id: string, withinMs: number) => until('the card done', async () => { const c = await whole(id); return c.status === 'done' ? c : undefined; }, withinMs, 250);
  const liveSessions = async () => {
    const list = (await person.request('GET', '/v1/assistants')).json.assistants as { app: string; agents: { liveSessions: { appSessionId?: string }[] }[] }[];
    return list.find((a) => a.app === 'opencode')?.agents.flatMap((g) => g.liveSessions) ?? [];
  };
  /** The person asks in the UI: the model's first step is the command, which OpenCode asks about. */
  const ask = async (p: PtyProgram) => {
    await p.press('Do it.', 'Do it.');
    await p.press(keys.enter, /esc interrupt/);
  };
  /** A new session in the UI (`/new`), then asked: each test a session of its own. */
  const askInNewSession = async (p: PtyProgram) => {
    await p.press('/new', '/new');
    await p.press(keys.enter, READY);
    await p.waitGone('All done.', 30_000);
    await ask(p);
  };

  it('the UI\'s first prompt asks: a card naming OpenCode, OpenCode\'s own prompt beside it; Approve is OpenCode\'s "once" and the command runs', async function () {
    this.timeout(420_000);
    const p = ui!;
    await ask(p);
    const card = await approvalCard(300_000);
    const shown = await whole(card.id);
    assert.ok(shown.title.startsWith('OpenCode asks to use bash to run: touch'), shown.title);
    assert.ok(shown.summary?.includes(`touch ${marker()}`), `the whole command on the card: ${shown.summary}`);
    const screen = await p.waitFor(OWN_PROMPT, 30_000);
    assert.match(screen, OWN_CHOICES, 'OpenCode\'s own prompt waits in its terminal meanwhile');
    assert.ok((await liveSessions()).length >= 1, 'the session is live while it asks');
    await answer(card.id, { approved: true });
    await p.waitFor('All done.', 60_000);
    assert.ok(fs.existsSync(marker()), 'OpenCode ran the approved command');
    assert.doesNotMatch(p.screen.text(), new RegExp(OWN_PROMPT), 'the card\'s answer closed OpenCode\'s own prompt');
    assert.equal((await whole(card.id)).closedBy, 'assistant', 'picked up by OpenCode, not withdrawn');
  });

  it('Decline with a note: OpenCode rejects, nothing runs, and the note reaches the model', async () => {
    const p = ui!;
    await askInNewSession(p);
    const card = await approvalCard(120_000);
    await p.waitFor(OWN_PROMPT, 30_000);
    await answer(card.id, { approved: false, note: { text: 'Not on a Friday, please.' } });
    await p.waitGone(OWN_PROMPT, 60_000);
    await until('the note at the model', () => model.seenText('openai').includes('Not on a Friday, please.'), 60_000, 200);
    assert.equal(fs.existsSync(marker()), false, 'the declined command did not run');
    assert.equal((await whole(card.id)).closedBy, 'assistant');
  });

  it('answered in OpenCode\'s own prompt ("Allow once", Enter): the card is withdrawn at once and the command runs', async () => {
    const p = ui!;
    await askInNewSession(p);
    const card = await approvalCard(120_000);
    await p.waitFor(OWN_CHOICES, 30_000);
    await p.press(keys.enter, 'All done.', 60_000);
    assert.ok(fs.existsSync(marker()), 'the person\'s "Allow once" in the terminal ran it');
    const closed = await done(card.id, 20_000);
    assert.notEqual(closed.closedBy, 'person', 'withdrawn: nobody answered on the card');
  });

  // Last: it quits the UI.
  it('the person quits the UI while a card waits: the card is withdrawn, the session ends, nothing runs', async () => {
    const p = ui!;
    const before = new Set((await liveSessions()).map((s) => s.appSessionId));
    await askInNewSession(p);
    const card = await approvalCard(120_000);
    await p.waitFor(OWN_PROMPT, 30_000);
    const asking = (await liveSessions()).find((s) => !before.has(s.appSessionId))?.appSessionId;
    assert.ok(asking, 'the asking session is live');
    const quitAt = Date.now();
    // Ctrl+C is OpenCode's "exit" key; pressed again if the first only closed something.
    for (let tries = 0; tries < 3; tries++) {
      p.type(keys.ctrlC);
      if (await Promise.race([p.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 5_000))])) break;
    }
    await Promise.race([p.exited, new Promise((_, reject) => setTimeout(() => reject(new Error(`OpenCode did not quit\n${p.screen.text()}`)), 20_000))]);
    ui = undefined;
    const closed = await done(card.id, 20_000);
    assert.notEqual(closed.closedBy, 'person');
    assert.ok(Date.now() - quitAt < WAIT_S * 1000, 'withdrawn by the quit, not by the wait');
    await until('the asking session ended', async () => !(await liveSessions()).some((s) => s.appSessionId === asking) || undefined, 15_000, 250);
    assert.equal(fs.existsSync(marker()), false);
  });
});
