// `npm test`: on a fresh clone it first sets up what it needs (scripts/setup.mjs: Node check,
// `npm ci`, Debian's packages for the tests that run VS Code), then runs typecheck, lint, the
// plain-Node tests, then the extension-host suite on the current VS Code and again on VS Code 1.93
// (the oldest engines.vscode allows), in that order.
// Every tier runs even when an earlier one failed, so one run shows everything. The last line is
// `N passed, M failed` over every tier (typecheck and lint count as one check each); the exit
// code is non-zero if anything failed.
//   npm test -- --tiers typecheck,lint,node,host,host-min   (a subset, same closing line)
//   npm test -- --grep <regex>                      (filters the node and host tests)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies, ensureNode, ensureSystemPackages, SetupError, systemPackages } from './setup.mjs';
import { codeServerInstalled, TARGETS } from './install-code-server.mjs';

ensureNode();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const arg = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const tiers = (arg('--tiers') ?? 'typecheck,lint,node,host,host-min').split(',').map((t) => t.trim());
const grep = arg('--grep');
const bin = (pkg, rel) => path.join(root, 'node_modules', pkg, rel);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assistant-cards-test-'));

const summary = [];
let passed = 0;
let failed = 0;

function banner(name) {
  console.log(`\n=== ${name} ${'='.repeat(Math.max(0, 70 - name.length))}`);
}

function run(args) {
  return spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } });
}

function readCounts(file) {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof r.passed === 'number' && typeof r.failed === 'number') return r;
  } catch { /* none */ }
  return undefined;
}

function oneCheck(name, args) {
  banner(name);
  const t = Date.now();
  const r = run(args);
  const ok = r.status === 0;
  if (ok) passed++; else failed++;
  summary.push(`${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

function counted(name, args, resultsFile) {
  banner(name);
  const t = Date.now();
  const r = run(args);
  let c = readCounts(resultsFile);
  if (!c) c = { passed: 0, failed: 1 }; // it crashed before reporting: that is a failure
  else if (r.status !== 0 && c.failed === 0) c = { ...c, failed: 1 }; // reported clean but exited badly
  passed += c.passed;
  failed += c.failed;
  summary.push(`${name}: ${c.passed} passed, ${c.failed} failed in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  // CI shows only the end of the output: name each failure there, with the start of its error
  // (a property test's seed and counterexample are on its second and third lines).
  for (const f of c.failures ?? []) summary.push(`  failed: ${lines(f.title, 1)}: ${lines(f.error, 4).slice(0, 600)}`);
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
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(1);
}
// The host tier and the plain-Node tests that start VS Code (test/scripts: npm start, the VSIX)
// need chromium, and the build tools until code-server is installed.
const VSCODE_NODE_TESTS = ['test/scripts/start.test.ts', 'test/scripts/vsix.test.ts'];
const min = tiers.includes('host-min');
const vscodeReady = !(tiers.includes('node') || tiers.includes('host') || min)
  || setupStep('packages for VS Code', () => ensureSystemPackages(systemPackages({
    buildTools: !codeServerInstalled(TARGETS.current) || (min && !codeServerInstalled(TARGETS.min)),
    ripgrep: min && !codeServerInstalled(TARGETS.min),
  })));

if (tiers.includes('typecheck')) oneCheck('typecheck (tsc --noEmit)', [bin('typescript', 'bin/tsc'), '--noEmit', '-p', '.']);
if (tiers.includes('lint')) oneCheck('lint (eslint .)', [bin('eslint', 'bin/eslint.js'), '.']);
if (tiers.includes('node')) {
  const out = path.join(tmp, 'mocha.json');
  const skip = vscodeReady ? [] : VSCODE_NODE_TESTS.flatMap((f) => ['--ignore', f]);
  counted('plain-Node tests (mocha)', [bin('mocha', 'bin/mocha.js'), ...skip, '--reporter', path.join(root, 'scripts', 'mocha-count-reporter.cjs'), '--reporter-option', `out=${out}`, ...(grep ? ['--grep', grep] : [])], out);
}
if (tiers.includes('host') && vscodeReady) {
  const out = path.join(tmp, 'host.json');
  counted('extension-host tests (VS Code)', [path.join(root, 'scripts', 'host-test.mjs'), '--results', out, ...(grep ? ['--grep', grep] : [])], out);
}
if (min && vscodeReady) {
  const out = path.join(tmp, 'host-min.json');
  counted('extension-host tests (VS Code 1.93)', [path.join(root, 'scripts', 'host-test.mjs'), '--vscode', 'min', '--results', out, ...(grep ? ['--grep', grep] : [])], out);
}

fs.rmSync(tmp, { recursive: true, force: true });
console.log(`\n${summary.join('\n')}\n`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
