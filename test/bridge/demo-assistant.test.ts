// The demo assistant against a real sandbox: it registers a live session with the terminal facts
// it is given, asks cards, hears the person's answer after the hold, picks it up, asks the next,
// and ends its session when stopped (abort in-process; SIGINT for the CLI).
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { RunningSandbox } from '../../src/sandbox';
import { DEMO_SCRIPT, parseDemoArgs, startDemoAssistant, terminalSafe } from '../../src/bridge/demo-assistant';
import { call, signIn, startSandbox, type SignedIn } from '../sandbox/helpers';
import { until } from '../kit/until';
import { nowOf } from '../kit/clocks';

const root = path.resolve(__dirname, '..', '..');

interface WireAssistant { id: string; name: string; agents: { id: string; liveSessions: { appSessionId: string; cwd: string; terminal?: { pid?: number; tty?: string; program?: string } }[] }[] }

describe('demo assistant', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let person: SignedIn;

  beforeEach(async () => {
    sb = await startSandbox({ port: 0, manualClock: true });
    person = await signIn(sb.url, { now: nowOf(sb.clock) });
  });
  afterEach(async () => { await sb.close(); });

  const assistants = async (): Promise<WireAssistant[]> => {
    const res = await person.request('GET', '/v1/assistants');
    assert.equal(res.status, 200, res.text);
    return (res.json as { assistants: WireAssistant[] }).assistants;
  };

  it('registers its session, hears an answer after the hold, picks it up, asks the next; abort ends the session', async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const demo = await startDemoAssistant({
      base: sb.url, askKey: sb.askKey, name: 'builder', machineId: person.machine.id, cwd: '/home/dev/proj',
      terminal: { pid: 4242, tty: '/dev/pts/7', program: 'vscode' },
      intervalMs: 10, out: (l) => lines.push(l), signal: stop.signal,
    });

    // The session as the person's API shows it: pid, tty, cwd as reported.
    const mine = (await assistants()).find((a) => a.id === demo.assistantId);
    assert.ok(mine, 'the assistant is listed for the person on this computer');
    const session = mine.agents[0]?.liveSessions[0];
    assert.deepEqual(session && { id: session.appSessionId, cwd: session.cwd, terminal: session.terminal },
      { id: demo.appSessionId, cwd: '/home/dev/proj', terminal: { pid: 4242, tty: '/dev/pts/7', program: 'vscode' } });

    // The first card: a choice. The person answers it.
    const firstId = await until('the first card', () => demo.asked[0], 10_000, 20);
    const first = await person.request('GET', `/v1/cards/${firstId}`);
    assert.equal(first.json.card.kind, DEMO_SCRIPT[0]?.kind);
    const answer = await person.request('POST', `/v1/cards/${firstId}/answer`, {
      body: { version: first.json.card.version, choiceIds: ['sqlite'] }, headers: { 'idempotency-key': 'press-1' },
    });
    assert.equal(answer.status, 200, answer.text);

    // Nothing is heard during the hold (the manual clock stands still: the sandbox has nothing for
    // the assistant to hear); after it the assistant prints the answer and picks it up.
    assert.deepEqual((await call('GET', `${sb.url}/_sandbox/cards/${firstId}/heard`)).json.heard, [], 'the answer is held for 5 s');
    assert.equal(lines.some((l) => l.includes('heard')), false, 'not heard within the 5 s hold');
    sb.advance(5_001);
    await until('the answer heard', () => lines.find((l) => /heard answer: chose sqlite/.test(l)), 10_000, 20);
    await until('the pickup', () => lines.find((l) => /picked it up/.test(l)), 10_000, 20);
    const done = await person.request('GET', `/v1/cards/${firstId}`);
    assert.equal(done.json.card.status, 'done');

    // Then it asks the next kind.
    const secondId = await until('the second card', () => demo.asked[1], 10_000, 20);
    const second = await person.request('GET', `/v1/cards/${secondId}`);
    assert.equal(second.json.card.kind, DEMO_SCRIPT[1]?.kind);

    stop.abort();
    await demo.done;
    assert.ok(lines.some((l) => /session ended/.test(l)));
    const after = (await assistants()).find((a) => a.id === demo.assistantId);
    assert.deepEqual(after?.agents.flatMap((g) => g.liveSessions), [], 'no live session after Ctrl+C');
  });

  it('prints what it heard without control characters: no escape sequence reaches the terminal', async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const demo = await startDemoAssistant({
      base: sb.url, askKey: sb.askKey, name: 'reviewer', machineId: person.machine.id, terminal: { pid: 99 },
      intervalMs: 10, out: (l) => lines.push(l), signal: stop.signal, cards: 1,
    });
    const id = await until('the card', () => demo.asked[0], 10_000, 20);
    // A title change (OSC 0), a screen clear (CSI 2J), a bell, a C1 CSI and a backspace, around plain words.
    const hostile = 'use \u001b]0;pwned\u0007postgres\u001b[2J\u0007 \u009b31m\u0008now\u007f';
    const res = await person.request('POST', `/v1/cards/${id}/messages`, { body: { body: hostile } });
    assert.equal(res.status, 200, res.text);
    const heard = await until('the words heard', () => lines.find((l) => /heard message/.test(l)), 10_000, 20);
    // The one-byte CSI goes whole, its parameters with it (#52 F12: before, "31m" was left).
    assert.match(heard, /wrote "use postgres now"/);
    // eslint-disable-next-line no-control-regex
    for (const l of lines) assert.doesNotMatch(l, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, JSON.stringify(l));
    stop.abort();
    await demo.done;
  });

  it('terminalSafe keeps tabs, newlines and every other character', () => {
    assert.equal(terminalSafe('a\tb\nc é 漢 🙂'), 'a\tb\nc é 漢 🙂');
    assert.equal(terminalSafe('\u001bPq#0;2;0;0;0\u001b\\x\u001b(By\u001bcz'), 'xyz');
  });

  it('asking without the ask key is refused, and says so', async () => {
    // The service proves the key before anything is sent (#51 F1): with another key it cannot.
    await assert.rejects(startDemoAssistant({ base: sb.url, askKey: 'not-the-key', name: 'nokey', machineId: person.machine.id, out: () => undefined }),
      /did not prove its key\); nothing was sent to it/);
  });

  it('prints words written on its card as what it heard', async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const demo = await startDemoAssistant({
      base: sb.url, askKey: sb.askKey, name: 'reviewer', machineId: person.machine.id, terminal: { pid: 99 },
      intervalMs: 10, out: (l) => lines.push(l), signal: stop.signal, cards: 1,
    });
    const id = await until('the card', () => demo.asked[0], 10_000, 20);
    const res = await person.request('POST', `/v1/cards/${id}/messages`, { body: { body: 'use postgres instead' } });
    assert.equal(res.status, 200, res.text);
    await until('the words heard', () => lines.find((l) => /heard message: wrote "use postgres instead"/.test(l)), 10_000, 20);
    await until('nothing more to ask', () => lines.find((l) => /nothing more to ask/.test(l)), 10_000, 20);
    stop.abort();
    await demo.done;
  });

  it('as a CLI: SIGINT (Ctrl+C) ends the session and exits 0', async () => {
    // The ask key as a spawned sandbox announces it: local-service.json, a file only its owner reads,
    // naming the process that serves (this one: the sandbox runs in the test's process).
    const serviceFile = path.join(mkdtempSync(path.join(tmpdir(), 'ac-demo-service-')), 'local-service.json');
    writeFileSync(serviceFile, JSON.stringify({ url: sb.url, askKey: sb.askKey, pid: process.pid }), { mode: 0o600 });
    const child = spawn(process.execPath, ['-r', 'tsx/cjs', '-e',
      "require('./src/bridge/demo-assistant').runDemoAssistant(process.argv.slice(1)).then((c) => process.exit(c))",
      'demo', '--base', sb.url, '--name', 'cli', '--machine', person.machine.id, '--cwd', '/cli', '--pid', '777', '--service-file', serviceFile],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { out += c.toString(); });
    await until('the CLI live', () => /live as session/.test(out) || undefined, 20_000);
    const live = (await assistants()).flatMap((a) => a.agents.flatMap((g) => g.liveSessions)).find((s) => s.cwd === '/cli');
    assert.equal(live?.terminal?.pid, 777);
    const code = await new Promise<number | null>((resolve) => { child.on('exit', resolve); child.kill('SIGINT'); });
    assert.equal(code, 0, out);
    assert.match(out, /session ended/);
    const gone = (await assistants()).flatMap((a) => a.agents.flatMap((g) => g.liveSessions)).find((s) => s.cwd === '/cli');
    assert.equal(gone, undefined);
  });

  it('a sandbox that is not there gets a clear error', async () => {
    await sb.close();
    await assert.rejects(startDemoAssistant({ base: 'http://127.0.0.1:9', askKey: 'k', name: 'x', machineId: 'mch_x', out: () => undefined }),
      /cannot reach the local service at http:\/\/127\.0\.0\.1:9/);
    sb = await startSandbox({ port: 0 }); // for afterEach
  });
});

describe('demo assistant: arguments', () => {
  it('reads --base, --name, --pid, --tty, --interval', () => {
    assert.deepEqual(parseDemoArgs(['demo', '--base', 'http://127.0.0.1:5', '--name', 'n', '--pid', '12', '--tty', '/dev/pts/1', '--interval', '2']),
      { base: 'http://127.0.0.1:5', name: 'n', terminal: { pid: 12, tty: '/dev/pts/1' }, intervalMs: 2000 });
  });
  it('refuses a missing or malformed address and bad numbers, saying what to do', () => {
    const saved = process.env.ASSISTANT_CARDS_SANDBOX_URL;
    delete process.env.ASSISTANT_CARDS_SANDBOX_URL;
    try {
      assert.throws(() => parseDemoArgs(['demo']), /--base is required/);
      assert.throws(() => parseDemoArgs(['--base', 'localhost:3']), /must be an http\(s\) address/);
      assert.throws(() => parseDemoArgs(['--base', 'http://x', '--pid', 'abc']), /--pid must be a non-negative number/);
      assert.throws(() => parseDemoArgs(['--base', 'http://x', '--name']), /--name needs a value/);
    } finally {
      if (saved !== undefined) process.env.ASSISTANT_CARDS_SANDBOX_URL = saved;
    }
  });
});
