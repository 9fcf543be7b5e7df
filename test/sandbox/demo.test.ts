// --demo seeding and the command line: `node dist/sandbox.js --port 0 --demo` prints its address
// first, seeds a computer (identity file), three assistants with live sessions and a dozen cards.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, signIn, startSandbox } from './helpers';
import { nowOf } from '../kit/clocks';

describe('sandbox demo', () => {
  let sb: RunningSandbox;
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-demo-'));
    sb = await startSandbox({ port: 0, manualClock: true, demo: { machineFile: join(dir, 'machine.json'), machineName: 'demo-pc' } });
  });
  afterEach(async () => {
    await sb.close();
  });

  it('writes this computer\'s identity file, which signs in', async () => {
    const file = JSON.parse(readFileSync(join(dir, 'machine.json'), 'utf8'));
    assert.equal(file.id, sb.demo!.machineId);
    assert.equal(file.name, 'demo-pc');
    assert.equal(file.baseUrl, sb.url);
    assert.ok(file.privateJwk.d);
    const me = await signIn(sb.url, { machine: file, now: nowOf(sb.clock) });
    assert.equal((await me.request('GET', '/v1/cards')).status, 200);
  });

  it('seeds three assistants with agents and live sessions, and a dozen cards of every kind and state', async () => {
    const file = JSON.parse(readFileSync(join(dir, 'machine.json'), 'utf8'));
    const me = await signIn(sb.url, { machine: file, now: nowOf(sb.clock) });
    const assistants = (await me.request('GET', '/v1/assistants')).json.assistants;
    assert.equal(assistants.length, 3);
    for (const a of assistants) {
      assert.ok(a.agents.length >= 1);
      assert.ok(a.agents.some((g: { liveSessions: unknown[] }) => g.liveSessions.length > 0));
      assert.equal(a.machine.id, file.id);
    }
    const all = [];
    for (const status of ['pending', 'snoozed', 'delegated', 'done']) {
      const r = await me.request('GET', `/v1/cards?status=${status}&whole=3&limit=100`);
      assert.ok(r.json.cards.length >= 1, `some ${status}`);
      all.push(...r.json.cards);
    }
    assert.ok(all.length >= 12, `${all.length} cards`);
    const kinds = new Set(all.map((c) => c.kind));
    for (const k of ['choice', 'approval', 'text', 'questions', 'failure', 'update']) assert.ok(kinds.has(k), k);
    assert.ok(new Set(all.map((c) => c.urgency)).size >= 3, 'several urgencies');
    assert.ok(all.some((c) => c.highStakes));
    assert.ok(all.some((c) => c.blocking));
    const whole = await Promise.all(all.map(async (c) => (await me.request('GET', `/v1/cards/${c.id}`)).json.card));
    const updates = whole.filter((c) => c.kind === 'update');
    assert.ok(updates.some((c) => c.count > 1), 'a repeated notice');
    assert.ok(updates.some((c) => c.from === 'Cloudflare' && c.worker));
    assert.ok(whole.some((c) => c.multi === true));
    assert.ok(whole.some((c) => c.status === 'done' && c.answeredFrom));
  });

  it('reset seeds the demo again on the same computer; a second start adopts the identity file', async () => {
    const before = sb.demo!.machineId;
    await call('POST', `${sb.url}/_sandbox/reset`);
    assert.equal(sb.demo!.machineId, before);
    const cards = (await call('GET', `${sb.url}/_sandbox/changes`)).json.changes;
    assert.ok(cards.length >= 12);
    const second = await startSandbox({ port: 0, demo: { machineFile: join(dir, 'machine.json') } });
    try {
      assert.equal(second.demo!.machineId, before);
      const file = JSON.parse(readFileSync(join(dir, 'machine.json'), 'utf8'));
      assert.equal(file.baseUrl, second.url, 'the file follows the new address');
    } finally {
      await second.close();
    }
  });

  it('the command line prints its address first and stops on SIGTERM', async function () {
    this.timeout(20_000);
    const out = join(dir, 'sandbox.js');
    await build({ entryPoints: ['src/sandbox/main.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: out, logLevel: 'silent' });
    const child = spawn(process.execPath, [out, '--port', '0', '--demo', '--manual-clock', '--machine-file', join(dir, 'cli-machine.json')], { stdio: ['ignore', 'pipe', 'pipe'] });
    const firstLine = await new Promise<string>((resolve, reject) => {
      let buf = '';
      child.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        const nl = buf.indexOf('\n');
        if (nl !== -1) resolve(buf.slice(0, nl));
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    assert.match(firstLine, /^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = firstLine.slice('listening on '.length);
    const clock = await call('GET', `${url}/_sandbox/clock`);
    assert.equal(clock.json.manual, true);
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exit, 0);
    const bad = spawn(process.execPath, [out, '--port', 'x'], { stdio: 'ignore' });
    assert.equal(await new Promise((resolve) => bad.on('exit', resolve)), 2);
  });
});
