// What `npm start` and `npm test` set up on a fresh clone before they do anything else: a Node
// new enough, the dependencies from the lockfile, and (for the extension-host tests and
// code-server) Debian's packages. Each step that fails says which step, why, and what to do next.
// Only node: built-ins here (and test-browser.cjs, which has no other import): this file runs
// before node_modules exists.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumPath } from './test-browser.cjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (m) => console.log(`[setup] ${m}`);

export const NODE_NEEDED = '20.19';

/** A setup step that cannot go on: `message` is one or two lines the person can act on. */
export class SetupError extends Error {}

/** The problem with a Node version, in one line, or undefined when it is new enough. */
export function nodeVersionProblem(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [needMajor, needMinor] = NODE_NEEDED.split('.').map(Number);
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return `Node ${NODE_NEEDED} or newer is needed; this is Node ${version} (${process.execPath}). Install a newer Node and run the command again.`;
}

/** Exits with one clear line when this Node is too old (before anything can fail on it). */
export function ensureNode() {
  const problem = nodeVersionProblem();
  if (problem) {
    console.error(`[setup] ${problem}`);
    process.exit(1);
  }
}

/** Written into node_modules after our `npm ci`: the hash of the package-lock.json it installed. */
const INSTALLED_LOCK = '.assistant-cards-installed-lock';

const readOrUndefined = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

const lockHash = (dir) => {
  try {
    return createHash('sha256').update(fs.readFileSync(path.join(dir, 'package-lock.json'))).digest('hex');
  } catch {
    return undefined;
  }
};

/**
 * Why `npm ci` must run, or undefined when node_modules is current. The lockfile our last install
 * installed is known by its hash: the same lockfile with a new date (a checkout, a new worktree)
 * needs nothing. Without that record, npm's node_modules/.package-lock.json (written on every
 * install) older than the lockfile means the installed tree may not be the locked one.
 */
export function dependenciesStale(dir = root) {
  const installed = fs.statSync(path.join(dir, 'node_modules', '.package-lock.json'), { throwIfNoEntry: false });
  if (!installed) return 'node_modules is missing';
  const recorded = readOrUndefined(path.join(dir, 'node_modules', INSTALLED_LOCK));
  if (recorded !== undefined) return recorded.trim() === lockHash(dir) ? undefined : 'package-lock.json changed since the last install';
  const lock = fs.statSync(path.join(dir, 'package-lock.json'), { throwIfNoEntry: false });
  if (lock && lock.mtimeMs > installed.mtimeMs) return 'package-lock.json is newer than node_modules';
  return undefined;
}

/** npm's own CLI, run by this Node (so `npm ci` works the same under `npm test` and `node scripts/...`). */
function npmCommand() {
  const execpath = process.env.npm_execpath;
  if (execpath && /npm-cli\.js$/.test(execpath) && fs.existsSync(execpath)) return [process.execPath, [execpath]];
  return [process.platform === 'win32' ? 'npm.cmd' : 'npm', []];
}

/** `npm ci` when node_modules is missing or older than the lockfile. */
export function ensureDependencies(dir = root) {
  const why = dependenciesStale(dir);
  if (!why) return;
  // npm ci empties node_modules first: through a link, that is another checkout's tree.
  const modules = path.join(dir, 'node_modules');
  if (fs.lstatSync(modules, { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new SetupError(`${why}, and node_modules is a link to ${fs.realpathSync(modules)}: it is not reinstalled from here, ` +
      'because npm ci would empty the tree it points at. Run `npm ci` in the project that owns it, or replace the link with a folder of its own.');
  }
  say(`${why}: installing the dependencies (npm ci)`);
  const [cmd, pre] = npmCommand();
  // --prefer-offline: a second clone on this machine installs from npm's cache.
  const r = spawnSync(cmd, [...pre, 'ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) {
    throw new SetupError(`installing the dependencies failed (npm ci, exit ${r.status ?? r.signal ?? r.error?.message}; its output is above).\n` +
      'Check that this machine reaches the npm registry and that package-lock.json is intact, then run the command again.');
  }
  const hash = lockHash(dir);
  if (hash) fs.writeFileSync(path.join(modules, INSTALLED_LOCK), `${hash}\n`);
}

const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/**
 * The browser the extension-host tiers drive the workbench in: Debian's `chromium-headless-shell`,
 * Chromium's old headless mode (the same Blink and V8 as `chromium`, without the full browser
 * around them), what Playwright itself runs for headless tests. On the 2-core guest the axe tests
 * took 113-117 s of CPU in it against 132-153 s in `chromium --headless`, the whole trusted window
 * ~4 % less (docs/decisions.md, "#36: what a window and a file cost"). `npm start`'s and the
 * VSIX's end-to-end tests keep the full `chromium`, a person's browser.
 * ASSISTANT_CARDS_HEADLESS_SHELL (or ASSISTANT_CARDS_CHROMIUM) names another.
 */
export function hostTestBrowser(env = process.env) {
  return env.ASSISTANT_CARDS_HEADLESS_SHELL ?? env.ASSISTANT_CARDS_CHROMIUM ?? '/usr/bin/chromium-headless-shell';
}

/**
 * Each Debian package the tests that run VS Code need, with how to tell it is there. `chromium`
 * (the end-to-end tests) and `chromium-headless-shell` (the host tiers) open the workbench, and
 * `fonts-ipafont-gothic` draws its Japanese (`browser`); `ripgrep` is the `rg` code-server 4.93
 * is given; the rest build code-server's native modules (`buildTools`, only until code-server is
 * installed in the user's cache, ~/.cache/assistant-cards).
 */
export function systemPackages({ browser = true, buildTools = true, ripgrep = false, chromium = chromiumPath(), headlessShell = hostTestBrowser() } = {}) {
  const packages = browser ? [
    { name: 'chromium', present: () => fs.existsSync(chromium) },
    // The host tiers' browser (hostTestBrowser): the same engine without the browser's own shell.
    { name: 'chromium-headless-shell', present: () => fs.existsSync(headlessShell) },
    // A Japanese font: the ja window's screenshots (and its clipping check) measure real glyphs, not boxes.
    { name: 'fonts-ipafont-gothic', present: () => spawnSync('fc-list', [':lang=ja'], { encoding: 'utf8' }).stdout?.trim().length > 0 },
  ] : [];
  // code-server 4.93's @vscode/ripgrep downloads `rg` from GitHub unless it is given one: Debian's.
  if (ripgrep) packages.push({ name: 'ripgrep', present: () => onPath('rg') });
  if (buildTools) {
    packages.push(
      { name: 'pkg-config', present: () => onPath('pkg-config') },
      { name: 'libkrb5-dev', present: () => onPath('pkg-config') && spawnSync('pkg-config', ['--exists', 'krb5-gssapi'], { stdio: 'ignore' }).status === 0 },
      { name: 'build-essential', present: () => onPath('make') && onPath('g++') },
      { name: 'python3', present: () => onPath('python3') },
    );
  }
  return packages;
}

export const aptLine = (missing) => `sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`;

/**
 * Installs the missing packages when running as root with apt-get (as CI does); otherwise throws a
 * SetupError whose message is the one apt-get line to run.
 */
export function ensureSystemPackages(packages, { isRoot = process.getuid?.() === 0, hasApt = onPath('apt-get'), run = spawnSync } = {}) {
  const missing = packages.filter((p) => !p.present()).map((p) => p.name);
  if (!missing.length) return;
  if (!isRoot || !hasApt) {
    throw new SetupError(`VS Code (code-server) and its tests need Debian packages that are missing: ${missing.join(', ')}.\n` +
      `Install them, then run the command again: ${aptLine(missing)}`);
  }
  say(`installing ${missing.join(' ')} (apt-get, about a minute)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = run('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = update.status === 0
    ? run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'inherit', env })
    : update;
  const still = packages.filter((p) => missing.includes(p.name) && !p.present()).map((p) => p.name);
  if (install.status !== 0 || still.length) {
    throw new SetupError(`apt-get could not install ${(still.length ? still : missing).join(' ')} (exit ${install.status ?? install.signal}; its output is above).\n` +
      `Check that this machine reaches Debian's package mirror, then run: ${aptLine(still.length ? still : missing)}`);
  }
}
