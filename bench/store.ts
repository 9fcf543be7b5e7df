// #51's store figures, beside the in-memory sandbox, on the release build of the sandbox
// (dist/sandbox.js as `npm run package` builds it) run as a process of its own:
//  - startToFirstAnswerMs: a store holding 10,000 done cards (and a sign-in, and a waiting card),
//    from the process's spawn to that card's answer acknowledged (goal < 500 ms);
//  - answerP50Ms / answerP95Ms: 200 answers one after another, each acknowledged once on disk
//    (goal p95 < 25 ms), and the same through the in-memory sandbox;
//  - storeBytes: the file for those 10,000 done cards and 200 answered ones;
//  - *CpuMs: the CPU time the sandbox process had used at those points (steadier than wall time
//    on a shared machine).
// Prints one JSON line (scripts/bench.mjs reads the last line).
import { spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SignedIn } from '../test/sandbox/helpers';
import { answer } from '../test/kit';
import { fillOverHttp, type Must } from '../test/sandbox/store/fill';
import { endProcess, freePort, startProcess } from '../test/sandbox/store/sandbox-process';

const root = path.resolve(__dirname, '..');
const ANSWERS = 200;
const DONE = 10_000;

/** Every sandbox this bench started: ended whatever happens. */
const children = new Set<ChildProcess>();

async function start(bundle: string, port: number, work: string, store?: string): Promise<{ child: ChildProcess; url: string }> {
  const run = await startProcess({ args: [bundle], port, work, ...(store ? { store } : {}) });
  children.add(run.child);
  run.child.once('exit', () => children.delete(run.child));
  return run;
}

/**
 * The service's clock ahead of this one's: answers are limited to 30 a minute, so the bench moves
 * the sandbox's real clock on by 2.1 s before each (POST /_sandbox/clock/jump), and signs its DPoP
 * proofs on that clock. A restart starts on real time again.
 */
let aheadMs = 0;
const serviceNow = () => Date.now() + aheadMs;

const stop = (child: ChildProcess) => endProcess(child, 'SIGTERM');
/**
 * The CPU time a process has used so far (user + system, from /proc; NaN where there is none). On
 * this shared machine the wall times above move with the load; the CPU time says what the start costs.
 */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function answers(must: Must, me: SignedIn, card: () => Promise<string>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < ANSWERS; i++) {
    const id = await card();
    await must('POST', '/_sandbox/clock/jump', { ms: 2_100 });
    aheadMs += 2_100;
    const t0 = performance.now();
    const r = await answer(me, id, { version: 1, choiceIds: ['a'] });
    ms.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`answer: ${r.status} ${r.text}`);
  }
  return ms.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-bench-store-'));
  try {
    const out = path.join(dir, 'dist');
    const b = spawnSync(process.execPath, ['esbuild.mjs', '--release', '--outdir', out], { cwd: root, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`esbuild.mjs --release: ${b.stderr}`);
    const bundle = path.join(out, 'sandbox.js');
    const result: Record<string, number> = {};

    // The in-memory sandbox: the same answers, nothing written.
    {
      const port = await freePort();
      const t0 = performance.now();
      const sb = await start(bundle, port, dir);
      result.memoryStartToListeningMs = performance.now() - t0;
      result.memoryStartCpuMs = cpuMs(sb.child.pid);
      const s = await fillOverHttp(sb.url, dir, { now: serviceNow });
      const ms = await answers(s.must, s.me, s.card);
      result.memoryAnswerP50Ms = pct(ms, 0.5);
      result.memoryAnswerP95Ms = pct(ms, 0.95);
      await stop(sb.child);
      aheadMs = 0;
    }

    // The store: 10,000 done cards, answers through it, then a restart to the first answer.
    const store = path.join(dir, 'data', 'store.db');
    const port = await freePort();
    let sb = await start(bundle, port, dir, store);
    const s = await fillOverHttp(sb.url, dir, { now: serviceNow });
    for (let left = DONE; left > 0; left -= 5000) {
      await s.must('POST', '/_sandbox/seed/done', { count: Math.min(5000, left), days: 29, machineId: s.machine.id });
    }
    const ms = await answers(s.must, s.me, s.card);
    result.storeAnswerP50Ms = pct(ms, 0.5);
    result.storeAnswerP95Ms = pct(ms, 0.95);
    const waiting = await s.card();
    await stop(sb.child);
    aheadMs = 0;
    result.storeBytes = fs.statSync(store).size;
    const t0 = performance.now();
    sb = await start(bundle, port, dir, store);
    result.storeStartToListeningMs = performance.now() - t0;
    result.storeStartCpuMs = cpuMs(sb.child.pid);
    const r = await answer(s.me, waiting, { version: 1, choiceIds: ['b'] });
    result.startToFirstAnswerMs = performance.now() - t0;
    result.startToFirstAnswerCpuMs = cpuMs(sb.child.pid);
    if (r.status !== 200) throw new Error(`first answer after the restart: ${r.status} ${r.text}`);
    await stop(sb.child);
    for (const k of Object.keys(result)) if (k !== 'storeBytes') result[k] = Math.round(result[k]! * 10) / 10;
    console.log(JSON.stringify({ doneCards: DONE, answers: ANSWERS, ...result }));
  } finally {
    for (const c of children) c.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
