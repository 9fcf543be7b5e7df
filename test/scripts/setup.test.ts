// scripts/setup.mjs: what `npm start` and `npm test` check and install on a fresh clone, and the
// one or two lines a person gets when a step cannot be done.
import { strict as assert } from 'node:assert';
import type { SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

interface Pkg { name: string; present: () => boolean }
type Run = (cmd: string, args: string[]) => Pick<SpawnSyncReturns<string>, 'status' | 'signal'>;
interface Setup {
  NODE_NEEDED: string;
  SetupError: new (m: string) => Error;
  nodeVersionProblem(version: string): string | undefined;
  dependenciesStale(dir: string): string | undefined;
  ensureDependencies(dir: string): void;
  ensureSystemPackages(packages: Pkg[], opts: { isRoot: boolean; hasApt: boolean; run: Run }): void;
  systemPackages(o: { browser?: boolean; buildTools?: boolean; chromium?: string; headlessShell?: string }): Pkg[];
  hostTestBrowser(env: Record<string, string | undefined>): string;
}

const root = path.resolve(__dirname, '..', '..');

describe('the Node the project asks for is the Node its dependencies ask for', () => {
  // npm warns EBADENGINE on `npm ci` for a locked package whose engines leave out the running
  // Node: every locked package must take the oldest Node setup.mjs accepts (and package.json's
  // engines say), or that requirement is not the truth.
  it('every package in package-lock.json runs on NODE_NEEDED (npm ci on it warns no EBADENGINE)', async () => {
    const { NODE_NEEDED } = (await import(path.join(root, 'scripts', 'setup.mjs'))) as Setup;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- semver (a devDependency, the range reader npm uses) ships CommonJS
    const semver = require('semver') as { satisfies(v: string, range: string): boolean };
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } }> };
    const oldest = `${NODE_NEEDED}.0`;
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => typeof p.engines?.node === 'string' && !semver.satisfies(oldest, p.engines.node))
      .map(([name, p]) => `${name.replace(/^.*node_modules\//, '')}@${p.version ?? '?'} wants node ${p.engines?.node}`);
    assert.deepEqual(refusing, [], `locked packages that refuse Node ${oldest}`);
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
    assert.equal(manifest.engines.node, `>=${NODE_NEEDED}`, 'package.json engines.node says what setup.mjs checks');
    assert.equal(fs.readFileSync(path.join(root, '.nvmrc'), 'utf8').trim(), NODE_NEEDED.split('.')[0], '.nvmrc names the same major');
  });
});

describe('setup on a fresh clone (scripts/setup.mjs)', () => {
  let setup: Setup;
  before(async () => { setup = (await import(path.join(root, 'scripts', 'setup.mjs'))) as Setup; });

  it('names the Node found and the Node needed, in one line, when Node is too old', () => {
    const problem = setup.nodeVersionProblem('18.20.4');
    assert.ok(problem);
    assert.match(problem, /Node 20\.19 or newer is needed; this is Node 18\.20\.4/);
    assert.equal(problem.split('\n').length, 1);
    assert.ok(setup.nodeVersionProblem('20.18.3'));
    assert.equal(setup.nodeVersionProblem('20.19.0'), undefined);
    assert.equal(setup.nodeVersionProblem('24.1.0'), undefined);
  });

  it('installs the dependencies when node_modules is missing or older than the lockfile', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'setup-deps-'));
    try {
      fs.writeFileSync(path.join(dir, 'package-lock.json'), '{}');
      assert.equal(setup.dependenciesStale(dir), 'node_modules is missing');
      fs.mkdirSync(path.join(dir, 'node_modules'));
      fs.writeFileSync(path.join(dir, 'node_modules', '.package-lock.json'), '{}');
      const past = new Date(Date.now() - 60_000);
      fs.utimesSync(path.join(dir, 'node_modules', '.package-lock.json'), past, past);
      assert.equal(setup.dependenciesStale(dir), 'package-lock.json is newer than node_modules');
      fs.utimesSync(path.join(dir, 'package-lock.json'), new Date(past.getTime() - 60_000), new Date(past.getTime() - 60_000));
      assert.equal(setup.dependenciesStale(dir), undefined);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the lockfile our install recorded: a new date alone (a checkout, a worktree) installs nothing, new content does', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'setup-deps-'));
    try {
      const lock = '{"lockfileVersion":3}';
      fs.writeFileSync(path.join(dir, 'package-lock.json'), lock);
      fs.mkdirSync(path.join(dir, 'node_modules'));
      fs.writeFileSync(path.join(dir, 'node_modules', '.package-lock.json'), '{}');
      const past = new Date(Date.now() - 60_000);
      fs.utimesSync(path.join(dir, 'node_modules', '.package-lock.json'), past, past);
      fs.writeFileSync(path.join(dir, 'node_modules', '.assistant-cards-installed-lock'), `${createHash('sha256').update(lock).digest('hex')}\n`);
      assert.equal(setup.dependenciesStale(dir), undefined, 'the same lockfile, newer on disk');
      fs.writeFileSync(path.join(dir, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}');
      assert.equal(setup.dependenciesStale(dir), 'package-lock.json changed since the last install');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a node_modules that links to another checkout is never emptied by npm ci from here', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'setup-deps-'));
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'setup-other-'));
    try {
      fs.writeFileSync(path.join(dir, 'package-lock.json'), '{}');
      fs.mkdirSync(path.join(other, 'node_modules'));
      fs.writeFileSync(path.join(other, 'node_modules', 'keep.txt'), 'kept');
      fs.writeFileSync(path.join(other, 'node_modules', '.package-lock.json'), '{}');
      const past = new Date(Date.now() - 60_000);
      fs.utimesSync(path.join(other, 'node_modules', '.package-lock.json'), past, past);
      fs.symlinkSync(path.join(other, 'node_modules'), path.join(dir, 'node_modules'));
      assert.throws(() => setup.ensureDependencies(dir), /node_modules is a link to .*npm ci would empty the tree it points at/s);
      assert.equal(fs.readFileSync(path.join(other, 'node_modules', 'keep.txt'), 'utf8'), 'kept');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('the host tests\' browser is Chromium\'s headless shell, a package of its own beside chromium; either variable names another', () => {
    assert.equal(setup.hostTestBrowser({}), '/usr/bin/chromium-headless-shell');
    assert.equal(setup.hostTestBrowser({ ASSISTANT_CARDS_CHROMIUM: '/opt/c/chrome' }), '/opt/c/chrome');
    assert.equal(setup.hostTestBrowser({ ASSISTANT_CARDS_CHROMIUM: '/opt/c/chrome', ASSISTANT_CARDS_HEADLESS_SHELL: '/opt/s/shell' }), '/opt/s/shell');
    const named = (o: Parameters<Setup['systemPackages']>[0]) => setup.systemPackages({ buildTools: false, ...o }).map((p) => p.name);
    assert.deepEqual(named({}).filter((n) => n.startsWith('chromium')), ['chromium', 'chromium-headless-shell']);
    assert.deepEqual(named({ browser: false }), [], 'npm start needs no browser package');
    // Each is there when its own file is: a missing shell is named even where chromium is installed.
    const here = process.execPath;
    const missing = setup.systemPackages({ buildTools: false, chromium: here, headlessShell: path.join(os.tmpdir(), 'no-such-shell') }).filter((p) => !p.present()).map((p) => p.name);
    assert.ok(missing.includes('chromium-headless-shell') && !missing.includes('chromium'), `missing: ${missing.join(', ')}`);
  });

  it('not root: stops with the one apt-get line to run, naming only what is missing', () => {
    const pkgs: Pkg[] = [{ name: 'chromium', present: () => false }, { name: 'python3', present: () => true }, { name: 'libkrb5-dev', present: () => false }];
    const ran: string[] = [];
    assert.throws(() => setup.ensureSystemPackages(pkgs, { isRoot: false, hasApt: true, run: (c, a) => { ran.push([c, ...a].join(' ')); return { status: 0, signal: null }; } }),
      (e: Error) => e instanceof setup.SetupError && /missing: chromium, libkrb5-dev\./.test(e.message)
        && e.message.split('\n').length === 2 && e.message.endsWith('sudo apt-get install -y --no-install-recommends chromium libkrb5-dev'));
    assert.deepEqual(ran, [], 'nothing is run without root');
  });

  it('root: installs the missing packages with apt-get, and says which are still missing when that fails', () => {
    const installed = new Set<string>(['python3']);
    const pkgs: Pkg[] = ['chromium', 'python3', 'pkg-config'].map((name) => ({ name, present: () => installed.has(name) }));
    const ran: string[] = [];
    const run: Run = (c, a) => {
      ran.push([c, ...a].join(' '));
      if (a[0] === 'install') for (const n of a.filter((x) => !x.startsWith('-')).slice(1)) installed.add(n);
      return { status: 0, signal: null };
    };
    setup.ensureSystemPackages(pkgs, { isRoot: true, hasApt: true, run });
    assert.deepEqual(ran, ['apt-get update -qq', 'apt-get install -y -qq --no-install-recommends chromium pkg-config']);
    assert.ok(installed.has('chromium') && installed.has('pkg-config'));

    installed.delete('chromium');
    const failing: Run = (c, a) => ({ status: a[0] === 'install' ? 100 : 0, signal: null });
    assert.throws(() => setup.ensureSystemPackages(pkgs, { isRoot: true, hasApt: true, run: failing }),
      (e: Error) => /apt-get could not install chromium \(exit 100/.test(e.message) && /apt-get install -y --no-install-recommends chromium$/.test(e.message));
  });
});
