// `ask`: its arguments and each exit status (#54 part 5, #52 F6), against a sandbox on port 0. The
// person answers through the person's API as the extension does. The statuses of a whole run
// (usage, no service, an approval) are also checked through the bundled bridge.js, as a script sees them.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import type { RunningSandbox } from '../../src/sandbox';
import { ASK_EXIT, parseAskArgs, runAsk, type AskArgs } from '../../src/bridge/ask-command';
import { setHold, signIn, startSandbox, type SignedIn, type WireCard } from '../sandbox/helpers';
import { until } from '../kit/until';


describe('ask: its arguments', () => {
  it('approval, choice and text with their title; the defaults: a blocking card, 600 s, app "other", name "ask"', () => {
    const a = parseAskArgs(['approval', 'Deploy to staging?']);
    assert.deepEqual(a, { card: { kind: 'approval', title: 'Deploy to staging?', blocking: true, urgency: 'now', reason: 'ask' }, waitMs: 600_000, app: 'other', name: 'ask' });
    const c = parseAskArgs(['choice', 'Which database?', '--option', 'pg=Postgres', '--option', 'lite=SQLite = small', '--summary', 'for the shop', '--wait', '2.5', '--app', 'aider', '--name', 'shop']);
    assert.deepEqual(c.card.options, [{ id: 'pg', label: 'Postgres' }, { id: 'lite', label: 'SQLite = small' }]);
    assert.equal(c.card.summary, 'for the shop');
    assert.equal(c.waitMs, 2_500);
    assert.equal(c.app, 'aider');
    assert.equal(c.name, 'shop');
    assert.equal(parseAskArgs(['text', 'Name the branch']).card.kind, 'text');
  });

  it('bad usage throws, saying what is wrong', () => {
    const cases: [string[], RegExp][] = [
      [[], /kind must be approval, choice or text/],
      [['question', 'x'], /kind must be/],
      [['approval'], /a title is needed/],
      [['approval', 'x', '--summary'], /--summary needs a value/],
      [['approval', 'x', '--wait', '0'], /--wait takes seconds above 0, got "0"/],
      [['approval', 'x', '--wait', 'soon'], /--wait takes seconds above 0/],
      [['choice', 'x', '--option', 'noequals'], /--option takes ID=LABEL, got "noequals"/],
      [['choice', 'x', '--option', '=label'], /--option takes ID=LABEL/],
      [['choice', 'x'], /a choice needs --option/],
      [['approval', 'x', '--colour', 'red'], /unknown option --colour/],
    ];
    for (const [argv, message] of cases) assert.throws(() => parseAskArgs(argv), message, argv.join(' '));
  });
});

describe('ask: each exit status', function () {
  this.timeout(60_000);
  let sb: RunningSandbox;
  let person: SignedIn;
  beforeEach(async () => {
    sb = await startSandbox({ port: 0 });
    person = await signIn(sb.url);
    await setHold(sb, 0);
  });
  afterEach(async () => { await sb.close(); });

  const pending = async (): Promise<WireCard[]> => (await person.request('GET', '/v1/cards?whole=3')).json.cards as WireCard[];
  const theCard = () => until('the card', async () => (await pending()).find((c) => c.status !== 'done'), 10_000, 50);
  const card = async (id: string): Promise<WireCard> => (await person.request('GET', `/v1/cards/${id}`)).json.card as WireCard;
  const answer = async (id: string, body: Record<string, unknown>) => {
    const c = await card(id);
    const r = await person.request('POST', `/v1/cards/${id}/answer`, { body: { version: c.version, ...body }, headers: { 'idempotency-key': `k-${id}-${Math.random()}` } });
    assert.equal(r.status, 200, r.text);
  };
  const ask = (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const args: AskArgs = parseAskArgs(argv);
    const status = runAsk({ args, service: { url: sb.url, askKey: sb.askKey }, out: (l) => out.push(l), err: (l) => err.push(l) });
    return { status, out, err };
  };

  it('0: an approval approved; the answer printed as one JSON line; the card picked up', async () => {
    const run = ask(['approval', 'Deploy to staging?']);
    const c = await theCard();
    await answer(c.id, { approved: true });
    assert.equal(await run.status, ASK_EXIT.answered);
    assert.equal(ASK_EXIT.answered, 0);
    const printed = JSON.parse(run.out[0]!) as Record<string, unknown>;
    assert.deepEqual([printed.outcome, printed.card, printed.approved], ['answered', c.id, true]);
    assert.equal((await card(c.id)).status, 'done');
  });

  it('0: a choice answered, with the ids picked', async () => {
    const run = ask(['choice', 'Which database?', '--option', 'pg=Postgres', '--option', 'lite=SQLite']);
    const c = await theCard();
    await answer(c.id, { choiceIds: ['lite'] });
    assert.equal(await run.status, 0);
    assert.deepEqual(JSON.parse(run.out[0]!).choiceIds, ['lite']);
  });

  it('1: an approval declined, with the note', async () => {
    const run = ask(['approval', 'Deploy to staging?']);
    const c = await theCard();
    await answer(c.id, { approved: false, note: { text: 'not today' } });
    assert.equal(await run.status, ASK_EXIT.declined);
    assert.equal(ASK_EXIT.declined, 1);
    assert.equal(JSON.parse(run.out[0]!).note.text, 'not today');
  });

  it('F6: words written on an approval exit 5, never 0: `ask approval … && deploy` does not deploy', async () => {
    const run = ask(['approval', 'Deploy to production?']);
    const c = await theCard();
    assert.equal((await person.request('POST', `/v1/cards/${c.id}/messages`, { body: { body: 'NO. Do not deploy until the migration is reviewed.' } })).status, 200);
    const status = await run.status;
    assert.notEqual(status, 0);
    assert.equal(status, ASK_EXIT.words);
    assert.equal(ASK_EXIT.words, 5);
    const printed = JSON.parse(run.out[0]!) as Record<string, unknown>;
    assert.deepEqual([printed.outcome, printed.card, printed.body], ['words', c.id, 'NO. Do not deploy until the migration is reviewed.']);
  });

  it('F6: words written on a choice exit 5 too', async () => {
    const run = ask(['choice', 'Which database?', '--option', 'pg=Postgres']);
    const c = await theCard();
    assert.equal((await person.request('POST', `/v1/cards/${c.id}/messages`, { body: { body: 'ask Kim' } })).status, 200);
    assert.equal(await run.status, ASK_EXIT.words);
  });

  it('3: no answer: the wait runs out (the card is withdrawn), or the person hands the choice back', async () => {
    const run = ask(['approval', 'Deploy?', '--wait', '1']);
    const c = await theCard();
    assert.equal(await run.status, ASK_EXIT.unanswered);
    assert.equal(ASK_EXIT.unanswered, 3);
    assert.equal(JSON.parse(run.out[0]!).outcome, 'timeout');
    assert.equal((await card(c.id)).status, 'done', 'withdrawn');
    const back = ask(['approval', 'Deploy again?']);
    const c2 = await theCard();
    await answer(c2.id, { theyDecide: true });
    assert.equal(await back.status, ASK_EXIT.unanswered);
    assert.equal(JSON.parse(back.out[0]!).outcome, 'theyDecide');
  });

  it('4: no local service: said on stderr', async () => {
    const err: string[] = [];
    const status = await runAsk({ args: parseAskArgs(['approval', 'x']), service: undefined, out: () => undefined, err: (l) => err.push(l) });
    assert.equal(status, ASK_EXIT.noService);
    assert.equal(ASK_EXIT.noService, 4);
    assert.match(err[0] ?? '', /no local service is running/);
  });

  describe('through the bundled bridge.js, as a script runs it', () => {
    let dir = '';
    let bridge = '';
    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ask-bundle-'));
      bridge = path.join(dir, 'bridge.js');
      await build({ entryPoints: ['src/bridge/main.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bridge, logLevel: 'warning' });
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const spawnAsk = (home: string, argv: string[]) => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [bridge, 'ask', ...argv], { env: { ...process.env, ASSISTANT_CARDS_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
      child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

    it('2 for bad usage (with the usage), 4 without a service, 5 for words and 0 for an approval', async () => {
      const home = path.join(dir, 'home');
      fs.mkdirSync(home);
      const usage = await spawnAsk(home, ['approval']);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /a title is needed[\s\S]*exit status: 0 answered/);
      assert.equal((await spawnAsk(home, ['approval', 'x'])).code, 4);
      fs.writeFileSync(path.join(home, 'local-service.json'), JSON.stringify({ url: sb.url, askKey: sb.askKey, pid: process.pid }), { mode: 0o600 });
      const words = spawnAsk(home, ['approval', 'Deploy?']);
      const c = await theCard();
      await person.request('POST', `/v1/cards/${c.id}/messages`, { body: { body: 'no' } });
      assert.equal((await words).code, 5);
      const yes = spawnAsk(home, ['approval', 'Deploy now?']);
      const c2 = await theCard();
      await answer(c2.id, { approved: true });
      assert.equal((await yes).code, 0);
    });
  });
});
