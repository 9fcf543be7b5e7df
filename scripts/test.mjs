// `npm test`: on a fresh clone it first sets up what it needs (scripts/setup.mjs: Node check,
// `npm ci`, Debian's packages for the tests that run VS Code), then runs the tiers:
//   typecheck  tsc --noEmit
//   lint       eslint
//   unit       plain Node (mocha, .mocharc.cjs): every test that needs no VS Code
//   host       the extension-host suite inside VS Code (current)
//   host-min   the same suite's 1.93 part inside VS Code 1.93.1, the oldest engines.vscode allows
//   e2e        end to end: `npm start` on a fresh clone, the packaged VSIX installed (test/e2e)
// dist/ built, typecheck and lint side by side; then the others (`--jobs`, default 3: on two cores the
// tiers keep both busy at three, and a fourth costs more CPU than it saves in waiting, docs/decisions.md
// "#36: where a run's CPU goes on this 2-core guest"), each tier's output printed whole when it ends.
// Every tier runs even when another failed, so one run shows everything. The last line is
// `N passed, M failed` over every tier (typecheck, lint and the build count as one check each), with
// `, K skipped` when tests were skipped; the exit code is non-zero if anything failed.
//   npm test -- --tiers unit,host      (a subset, same closing line; `node` is `unit`)
//   npm test -- --grep <regex>         (filters the unit, host and e2e tests)
//   npm test -- --jobs 1               (one tier at a time, output as it comes)
// Every run writes artifacts/test-times.json (`--times <file>` elsewhere): each tier's wall time,
// each test's time (unit, host, host-min, e2e), each check's and tier's CPU seconds, how busy the
// cores were, and the 1-minute load average sampled every 5 s;
// the run ends by printing the 20 slowest tests.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies, ensureNode, ensureSystemPackages, SetupError, systemPackages } from './setup.mjs';
import { codeServerInstalled, ensureCodeServer, TARGETS } from './install-code-server.mjs';

ensureNode();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const arg = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const tiers = (arg('--tiers') ?? 'typecheck,lint,unit,host,host-min,e2e').split(',').map((t) => t.trim()).map((t) => (t === 'node' ? 'unit' : t));
const known = ['typecheck', 'lint', 'unit', 'host', 'host-min', 'e2e'];
for (const t of tiers) if (!known.includes(t)) { console.error(`unknown tier "${t}" (known: ${known.join(', ')})`); process.exit(2); }
const jobs = Math.max(1, Number(arg('--jobs') ?? 3) || 3);
const grep = arg('--grep');
const timesFile = path.resolve(root, arg('--times') ?? path.join('artifacts', 'test-times.json'));
const bin = (pkg, rel) => path.join(root, 'node_modules', pkg, rel);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assistant-cards-test-'));
// The assistants' home (local-service.json, the hook command) of every test run is its own: a
// sandbox a test starts with --announce never touches the person's ~/.config/assistant-cards.
// Each tier has a home of its own: tiers run side by side, and a window of one (the ja window
// writes the bridge's words file at activation) must not change what another's hooks say.
const ownHomes = process.env.ASSISTANT_CARDS_HOME === undefined;
process.env.ASSISTANT_CARDS_HOME ??= path.join(tmp, 'assistants-home');
let homes = 0;

const summary = [];
/** The timings file's content: tiers as they end, tests as each tier reports them, the load through the run. */
const startedAt = Date.now();
const times = { startedAt: new Date(startedAt).toISOString(), cores: os.cpus().length, jobs, grep: grep ?? null, tiers: [], load: [], tests: [] };
const sampleLoad = () => times.load.push({ s: Math.round((Date.now() - startedAt) / 1000), load1: Math.round(os.loadavg()[0] * 100) / 100 });
sampleLoad();
const loadTimer = setInterval(sampleLoad, 5000);
loadTimer.unref();
/**
 * What each check and tier cost in CPU, by its processes: every 2 s each process's own CPU time
 * (/proc/<pid>/stat, utime and stime) is read and counted for the check or tier it descends from.
 * From the process tree, not from the children's totals at their exit: Chromium's renderers and
 * VS Code's extension hosts are not waited for by the tier's own process (those totals gave a host
 * tier 373 s where its workbench's renderer alone used 312 s). Processes living less than a sample
 * are missed, and the last 2 s of each. Linux only; elsewhere nothing is said.
 */
const cpuOwners = new Map(); // the pid of a check's or tier's process -> its name
const cpuByOwner = new Map(); // name -> Map(pid -> CPU seconds at its last sample)
function sampleCpu() {
  let pids;
  try { pids = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)); } catch { return; }
  const procs = new Map();
  for (const p of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[0] is field 3 (state)
      procs.set(Number(p), { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / 100 });
    } catch { /* it ended meanwhile */ }
  }
  for (const [pid, { cpu }] of procs) {
    let owner;
    for (let q = pid, hops = 0; q > 1 && !owner && hops < 64; hops++) { owner = cpuOwners.get(q); q = procs.get(q)?.ppid ?? 0; }
    if (!owner) continue;
    const seen = cpuByOwner.get(owner) ?? new Map();
    cpuByOwner.set(owner, seen);
    seen.set(pid, Math.max(seen.get(pid) ?? 0, cpu));
  }
}
const cpuTimer = fs.existsSync('/proc/self/stat') ? setInterval(sampleCpu, 2000) : undefined;
cpuTimer?.unref();
/** Counts `child`'s process tree for `name` from now on. */
function countCpu(name, child) { if (cpuTimer && child.pid) { cpuOwners.set(child.pid, name); sampleCpu(); } }
/** The CPU seconds counted for `name` (undefined where nothing is sampled). */
function cpuOf(name) {
  if (!cpuTimer) return undefined;
  let sum = 0;
  for (const v of cpuByOwner.get(name)?.values() ?? []) sum += v;
  return round1(sum);
}
/** The machine's CPU time so far, busy and in all (/proc/stat), for how busy the run kept it. */
function machineCpu() {
  try {
    const [, ...n] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const v = n.slice(0, 8).map(Number);
    const all = v.reduce((a, b) => a + b, 0);
    return { busy: all - v[3] - v[4], all };
  } catch { return undefined; }
}
const machineAtStart = machineCpu();
let passed = 0;
let failed = 0;
let skipped = 0;

function banner(name) {
  console.log(`\n=== ${name} ${'='.repeat(Math.max(0, 70 - name.length))}`);
}

/**
 * Runs a check to its end, output as it comes (or, `kept`, printed whole when it ends, for checks
 * side by side); asynchronous, so the load is still sampled meanwhile.
 */
function run(args, name, kept = false) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root, stdio: kept ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, FORCE_COLOR: !kept && process.stdout.isTTY ? '1' : '0' },
    });
    const chunks = [];
    child.stdout?.on('data', (c) => chunks.push(c));
    child.stderr?.on('data', (c) => chunks.push(c));
    countCpu(name, child);
    let ended = false;
    const end = (r) => {
      if (ended) return;
      ended = true;
      if (kept) { banner(name); process.stdout.write(Buffer.concat(chunks)); }
      resolve(r);
    };
    child.on('error', (e) => { chunks.push(Buffer.from(`${e.message}\n`)); if (!kept) console.error(e.message); end({ status: 1, signal: null }); });
    child.on('close', (status, signal) => end({ status, signal }));
  });
}

function readCounts(file) {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof r.passed === 'number' && typeof r.failed === 'number') return r;
  } catch { /* none */ }
  return undefined;
}

async function oneCheck(name, args, kept = false) {
  if (!kept) banner(name);
  const t = Date.now();
  const r = await run(args, name, kept);
  const cpuSeconds = cpuOf(name);
  const ok = r.status === 0;
  if (ok) passed++; else failed++;
  const seconds = (Date.now() - t) / 1000;
  summary.push(`${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${seconds.toFixed(1)} s${cpuNote(cpuSeconds)}`);
  times.tiers.push({ tier: name.split(' ')[0], seconds: round1(seconds), cpuSeconds, ok });
  return ok;
}

/** A counting tier's result: its counts (a tier that never reported, or exited badly, failed). */
function addCounts(name, status, resultsFile, seconds, tier, output = '', cpuSeconds = undefined) {
  const reported = readCounts(resultsFile);
  let c = reported;
  for (const x of c?.tests ?? []) times.tests.push({ tier, ...x });
  times.tiers.push({ tier, seconds: round1(seconds), cpuSeconds, passed: c?.passed ?? 0, failed: c?.failed ?? 1, pending: c?.pending ?? 0, ...(c?.windows ? { windows: c.windows } : {}) });
  if (!c) c = { passed: 0, failed: 1 }; // it crashed before reporting: that is a failure
  else if (status !== 0 && c.failed === 0) c = { ...c, failed: 1 }; // reported clean but exited badly
  passed += c.passed;
  failed += c.failed;
  skipped += c.pending ?? 0;
  summary.push(`${name}: ${c.passed} passed, ${c.failed} failed${c.pending ? `, ${c.pending} skipped` : ''} in ${seconds.toFixed(1)} s${cpuNote(cpuSeconds)}`);
  // CI shows only the end of the output: name each failure there, with the start of its error
  // (a property test's seed and counterexample are on its second and third lines).
  for (const f of c.failures ?? []) summary.push(`  failed: ${lines(f.title, 1)}: ${lines(f.error, 4).slice(0, 600)}`);
  // A tier that ended before it reported (a build or a server that never started) says why there too.
  if (!reported || (status !== 0 && !(c.failures ?? []).length)) {
    // Its last words, without a stack's `at …` lines and Node's version line.
    const last = output.split('\n').map((l) => l.trimEnd()).filter((l) => l && !/^\s+at |^Node\.js v/.test(l)).slice(-6);
    if (last.length) summary.push(`  ended (exit ${status}) with:\n${last.map((l) => `    ${l.slice(0, 300)}`).join('\n')}`);
  }
}

/** The closing line: `N passed, M failed`, and `, K skipped` when a test was skipped (pending). */
function closingLine() {
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}

const round1 = (x) => Math.round(x * 10) / 10;
const cpuNote = (cpuSeconds) => (cpuSeconds === undefined ? '' : ` (${cpuSeconds.toFixed(0)} s of CPU)`);

/** Writes the timings file and returns the lines naming the `n` slowest tests. */
function writeTimes(n = 20) {
  sampleLoad();
  clearInterval(loadTimer);
  clearInterval(cpuTimer);
  times.seconds = round1((Date.now() - startedAt) / 1000);
  const loads = times.load.map((l) => l.load1);
  times.loadSummary = loads.length ? { min: Math.min(...loads), max: Math.max(...loads), mean: round1(loads.reduce((a, b) => a + b, 0) / loads.length) } : null;
  times.tests.sort((a, b) => b.ms - a.ms);
  // How busy the run kept the machine: the share of every core's time spent working (1 is all of it).
  const machineAtEnd = machineCpu();
  times.machineBusy = machineAtStart && machineAtEnd && machineAtEnd.all > machineAtStart.all
    ? Math.round(((machineAtEnd.busy - machineAtStart.busy) / (machineAtEnd.all - machineAtStart.all)) * 100) / 100 : null;
  try {
    fs.mkdirSync(path.dirname(timesFile), { recursive: true });
    fs.writeFileSync(timesFile, JSON.stringify(times, null, 2));
  } catch (e) { return [`timings file not written: ${e.message}`]; }
  if (times.tests.length === 0) return [];
  const out = [`${Math.min(n, times.tests.length)} slowest tests (all times in ${path.relative(root, timesFile)}; load average ${times.loadSummary ? `${times.loadSummary.min}-${times.loadSummary.max}, mean ${times.loadSummary.mean}` : 'not sampled'}${times.machineBusy !== null ? `; the cores busy ${Math.round(times.machineBusy * 100)} % of the run` : ''}):`];
  for (const t of times.tests.slice(0, n)) out.push(`  ${(t.ms / 1000).toFixed(1).padStart(6)} s  ${t.tier}${t.window && t.window !== 'trusted' ? `/${t.window}` : ''}  ${t.title.slice(0, 140)}`);
  return out;
}

function lines(text, n) {
  return String(text ?? '').split('\n').map((l) => l.trim()).filter((l) => l !== '').slice(0, n).join(' | ');
}

// A setup step that fails is one failed check with its reason; the tiers it does not stop still run.
function setupStep(name, fn) {
  try { fn(); return true; } catch (e) {
    if (!(e instanceof SetupError)) throw e;
    banner(`setup: ${name}`);
    console.error(`[setup] ${e.message}`);
    failed++;
    summary.push(`setup: ${name}: FAILED (${e.message.split('\n').pop()})`);
    return false;
  }
}

if (!setupStep('dependencies', () => ensureDependencies())) {
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`\n${summary.join('\n')}\n`);
  console.log(closingLine());
  process.exit(1);
}
// The host tiers and the end-to-end tier need chromium, and the build tools until code-server is
// installed; each VS Code is installed here, before the tiers start side by side (two tiers must
// not both find it missing).
const min = tiers.includes('host-min');
const wantsVscode = tiers.includes('host') || min || tiers.includes('e2e');
const vscodeReady = !wantsVscode
  || (setupStep('packages for VS Code', () => ensureSystemPackages(systemPackages({
    buildTools: !codeServerInstalled(TARGETS.current) || (min && !codeServerInstalled(TARGETS.min)),
    ripgrep: min && !codeServerInstalled(TARGETS.min),
  })))
  && setupStep('VS Code for tests', () => {
    ensureCodeServer({ target: TARGETS.current });
    if (min) ensureCodeServer({ target: TARGETS.min });
  }));

// dist/ built once, before the tiers that load it start side by side: two `node esbuild.mjs` at once
// write the same files (the split build's scratch folder too), and a half-written one fails a build.
const distTiers = vscodeReady && (tiers.includes('host') || min || tiers.includes('e2e'));
const distBuilt = distTiers && await oneCheck('build (node esbuild.mjs: dist/ for the host and e2e tiers)', ['esbuild.mjs']);

// typecheck and lint side by side (each is one thread; one after the other, a core idled ~30 s).
await Promise.all([
  tiers.includes('typecheck') && oneCheck('typecheck (tsc --noEmit)', [bin('typescript', 'bin/tsc'), '--noEmit', '-p', '.'], true),
  tiers.includes('lint') && oneCheck('lint (eslint .)', [bin('eslint', 'bin/eslint.js'), '.'], true),
]);

const reporter = (out) => ['--reporter', path.join(root, 'scripts', 'mocha-count-reporter.cjs'), '--reporter-option', `out=${out}`];
const grepArgs = grep ? ['--grep', grep] : [];
/** The tiers that count tests, each a command and the file its counts land in; longest first. */
const counting = [];
/** What the VS Code tiers are told: dist/ is built (host-test.mjs then builds only its tests). */
const distEnv = distBuilt ? { ASSISTANT_CARDS_DIST_BUILT: '1' } : {};
// The host tier's trusted window was the run's longest lane, waiting on real time more than on the
// cores: its files run in two windows side by side (test/editor/window-parts.ts). Its other windows
// run as two tiers of their own, each started when a lane is free: the display languages (pseudo,
// de, ja), then the Restricted Mode window. As one lane after host-min they were the run's
// critical path (host-min 608 s + 252 s of a 899 s run, 312561a); split, the short one fits after
// a trusted part.
if (tiers.includes('host') && vscodeReady) {
  for (const part of ['1', '2']) {
    const out = path.join(tmp, `host-${part}.json`);
    counting.push({ env: { ...distEnv, ASSISTANT_CARDS_TEST_PART: part }, tier: 'host', name: `host: extension-host tests (VS Code 1.139, trusted window, part ${part} of 2)`, args: [path.join(root, 'scripts', 'host-test.mjs'), '--window', 'trusted', '--results', out, ...grepArgs], out });
  }
}
if (min && vscodeReady) {
  const out = path.join(tmp, 'host-min.json');
  counting.push({ env: distEnv, tier: 'host-min', name: 'host-min: extension-host tests (VS Code 1.93)', args: [path.join(root, 'scripts', 'host-test.mjs'), '--vscode', 'min', '--results', out, ...grepArgs], out });
}
const hostOthers = tiers.includes('host') && vscodeReady
  ? [['locales', 'pseudo, de and ja windows'], ['untrusted', 'Restricted Mode window']].map(([window, what]) => {
    const out = path.join(tmp, `host-${window}.json`);
    return { env: distEnv, tier: 'host', name: `host: extension-host tests (VS Code 1.139, ${what})`, args: [path.join(root, 'scripts', 'host-test.mjs'), '--window', window, '--results', out, ...grepArgs], out };
  })
  : [];
if (tiers.includes('unit')) {
  const out = path.join(tmp, 'unit.json');
  counting.push({ tier: 'unit', name: 'unit: plain-Node tests (mocha)', args: [bin('mocha', 'bin/mocha.js'), ...reporter(out), ...grepArgs], out });
}
if (tiers.includes('e2e') && vscodeReady) {
  const out = path.join(tmp, 'e2e.json');
  counting.push({
    // Beside the host tiers, its host run leaves their dist/ as built above (host-test.mjs).
    env: distEnv,
    name: 'e2e: npm start on a fresh clone, the VSIX installed, tests alone (mocha)', tier: 'e2e',
    args: [bin('mocha', 'bin/mocha.js'), '--no-config', '--require', 'tsx/cjs', '--extension', 'ts', '--timeout', '20000', '--exit', '--forbid-only', ...reporter(out), ...grepArgs, 'test/e2e/**/*.test.ts'],
    out,
  });
}

counting.push(...hostOthers);

/** Runs one tier to its end; with other tiers beside it, its output is kept and printed whole at the end. */
function runTier(tier, alone) {
  const t = Date.now();
  if (alone) banner(tier.name);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, tier.args, {
      cwd: root, stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env, ...(ownHomes ? { ASSISTANT_CARDS_HOME: path.join(tmp, `assistants-home-${++homes}`) } : {}),
        ...tier.env, FORCE_COLOR: alone && process.stdout.isTTY ? '1' : '0',
      },
    });
    const chunks = [];
    child.stdout?.on('data', (c) => chunks.push(c));
    child.stderr?.on('data', (c) => chunks.push(c));
    child.on('error', (e) => chunks.push(Buffer.from(`${e.message}\n`)));
    countCpu(tier.name, child);
    let cpuSeconds;
    child.on('exit', () => { sampleCpu(); cpuSeconds = cpuOf(tier.name); });
    child.on('close', (code, signal) => {
      if (!alone) { banner(tier.name); process.stdout.write(Buffer.concat(chunks)); }
      resolve({ tier, status: code ?? signal, seconds: (Date.now() - t) / 1000, cpuSeconds, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

/** `jobs` lanes take the tiers in order; each tier's counts are added when it ends. */
async function runAll() {
  const queue = [...counting];
  const alone = jobs === 1 || counting.length === 1;
  const done = [];
  const lane = async () => {
    for (let tier = queue.shift(); tier; tier = queue.shift()) done.push(await runTier(tier, alone));
  };
  await Promise.all(Array.from({ length: Math.min(jobs, counting.length) }, lane));
  // The summary in the tiers' own order, whatever order they ended in.
  for (const tier of counting) {
    const r = done.find((d) => d.tier === tier);
    if (r) addCounts(tier.name, r.status, tier.out, r.seconds, tier.tier, r.output, r.cpuSeconds);
  }
}

await runAll();

fs.rmSync(tmp, { recursive: true, force: true });
const slowest = writeTimes();
if (slowest.length) console.log(`\n${slowest.join('\n')}`);
console.log(`\n${summary.join('\n')}\n`);
console.log(closingLine());
process.exit(failed > 0 ? 1 : 0);
