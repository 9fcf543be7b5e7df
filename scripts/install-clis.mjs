// Installs the real AI coding assistant CLIs the bridge tests drive, once, into the same git-ignored
// cache folder as code-server (scripts/install-code-server.mjs), keyed by version: Claude Code
// (@anthropic-ai/claude-code) and Codex (@openai/codex), each with `npm install --prefix`-style
// installs into their own folder, never into the repo's node_modules.
// Both npm packages are thin wrappers around a native binary that comes in a platform package
// (an optional dependency: @anthropic-ai/claude-code-linux-x64, @openai/codex-linux-x64 = an alias of
// @openai/codex@<v>-linux-x64). No install script is needed: the binary is run straight from the
// platform package (Claude Code's own postinstall only copies it over bin/claude.exe, and npm 11
// skips that script unless allowed), so nothing is fetched from anywhere but the npm registry.
// Usage: node scripts/install-clis.mjs [--force] [claude|codex|gemini|copilot|opencode ...]
// Prints the JSON of what it installed on the last line when run directly; import { ensureClaudeCode,
// ensureCodex } to reuse.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheDir, npmCli } from './install-code-server.mjs';

/** The pinned versions (the npm `latest` of each when this was written). */
export const CLAUDE_CODE_VERSION = '2.1.332';
export const CODEX_VERSION = '0.171.0';
export const GEMINI_CLI_VERSION = '0.61.0';
export const COPILOT_CLI_VERSION = '1.0.102';
export const OPENCODE_VERSION = '1.18.33';

const cache = cacheDir();

/** The npm platform suffix of this machine (linux-x64, darwin-arm64, linux-x64-musl, ...). */
function platformKey() {
  const arch = process.arch === 'x64' || process.arch === 'arm64' ? process.arch : null;
  if (!arch || !['linux', 'darwin', 'win32'].includes(process.platform)) return null;
  let musl = false;
  if (process.platform === 'linux') {
    const report = /** @type {any} */ (process.report?.getReport?.());
    musl = !report?.header?.glibcVersionRuntime;
  }
  return `${process.platform}-${arch}${musl ? '-musl' : ''}`;
}

export function claudeCodePaths(version = CLAUDE_CODE_VERSION) {
  const dir = path.join(cache, `claude-code-${version}`);
  const key = platformKey();
  const exe = process.platform === 'win32' ? 'claude.exe' : 'claude';
  return {
    name: 'claude-code',
    version,
    dir,
    /** The native binary, run directly (no Node in between). */
    bin: path.join(dir, 'node_modules', '@anthropic-ai', `claude-code-${key}`, exe),
    /** Claude Code's own fallback launcher (node cli-wrapper.cjs), for a platform without the above. */
    wrapper: path.join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'cli-wrapper.cjs'),
  };
}

export function codexPaths(version = CODEX_VERSION) {
  const dir = path.join(cache, `codex-${version}`);
  const key = platformKey()?.replace(/-musl$/, '');
  const triple = {
    'linux-x64': 'x86_64-unknown-linux-musl', 'linux-arm64': 'aarch64-unknown-linux-musl',
    'darwin-x64': 'x86_64-apple-darwin', 'darwin-arm64': 'aarch64-apple-darwin',
    'win32-x64': 'x86_64-pc-windows-msvc', 'win32-arm64': 'aarch64-pc-windows-msvc',
  }[key ?? ''] ?? 'unknown';
  const exe = process.platform === 'win32' ? 'codex.exe' : 'codex';
  return {
    name: 'codex',
    version,
    dir,
    /** The native binary (the npm package's bin/codex.js only finds and spawns it). */
    bin: path.join(dir, 'node_modules', '@openai', `codex-${key}`, 'vendor', triple, 'bin', exe),
    /** The npm package's launcher: `node codex.js ...` also works. */
    wrapper: path.join(dir, 'node_modules', '@openai', 'codex', 'bin', 'codex.js'),
  };
}

/** Gemini CLI: one bundled JavaScript file run by Node (no platform binary; node-pty is optional). */
export function geminiCliPaths(version = GEMINI_CLI_VERSION) {
  const dir = path.join(cache, `gemini-cli-${version}`);
  return {
    name: 'gemini-cli',
    version,
    dir,
    /** A JavaScript file: run it as `node <bin>` (`args` below). */
    bin: path.join(dir, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js'),
    node: true,
  };
}

/** GitHub Copilot CLI: the npm loader picks a native binary from a platform package. */
export function copilotCliPaths(version = COPILOT_CLI_VERSION) {
  const dir = path.join(cache, `copilot-cli-${version}`);
  const key = platformKey();
  const exe = process.platform === 'win32' ? 'copilot.exe' : 'copilot';
  return {
    name: 'copilot-cli',
    version,
    dir,
    bin: path.join(dir, 'node_modules', '@github', `copilot-${key?.replace('-musl', 'musl') ?? 'unknown'}`, exe),
    wrapper: path.join(dir, 'node_modules', '@github', 'copilot', 'npm-loader.js'),
  };
}

/** OpenCode: a native binary in a platform package (its postinstall only links it; skipped here). */
export function openCodePaths(version = OPENCODE_VERSION) {
  const dir = path.join(cache, `opencode-${version}`);
  const key = platformKey()?.replace('win32', 'windows');
  const exe = process.platform === 'win32' ? 'opencode.exe' : 'opencode';
  return {
    name: 'opencode',
    version,
    dir,
    bin: path.join(dir, 'node_modules', `opencode-${key ?? 'unknown'}`, 'bin', exe),
  };
}

/** The command line that runs a CLI: its binary, or Node with its script. */
export function commandOf(p, args = []) {
  return p.node ? { file: process.execPath, args: [p.bin, ...args] } : { file: p.bin, args };
}

function installed(p) {
  return fs.existsSync(path.join(p.dir, '.complete')) && fs.existsSync(p.bin);
}

/** One installer per folder at a time (two test files may start at once); a stale lock is removed. */
function withLock(dir, log, fn) {
  const lock = `${dir}.lock`;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  for (let waited = 0; ; waited += 2) {
    try { fs.mkdirSync(lock); break; } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10 * 60_000) { fs.rmSync(lock, { recursive: true, force: true }); continue; }
      if (waited % 30 === 0) log('another install is running; waiting');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);
    }
  }
  try { return fn(); } finally { fs.rmSync(lock, { recursive: true, force: true }); }
}

function ensure(p, spec, { force = false, quiet = false } = {}) {
  const log = (m) => { if (!quiet) console.log(`[install-clis] ${m}`); };
  const result = () => ({ ...p, installed: true });
  if (!force && installed(p)) return result();
  return withLock(p.dir, log, () => {
    if (!force && installed(p)) return result();
    const started = Date.now();
    log(`installing ${spec} into ${p.dir} (about 400 MB)`);
    fs.rmSync(p.dir, { recursive: true, force: true });
    fs.mkdirSync(p.dir, { recursive: true });
    fs.writeFileSync(path.join(p.dir, 'package.json'), JSON.stringify({
      private: true,
      description: `${spec} for the bridge tests; installed by scripts/install-clis.mjs`,
    }, null, 2));
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
    const r = spawnSync(process.execPath, [npmCli(), 'install', '--prefix', p.dir, '--no-save', '--no-package-lock', '--ignore-scripts', '--engine-strict=false', spec], {
      cwd: p.dir,
      stdio: quiet ? 'pipe' : 'inherit',
      env: { ...clean, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
      encoding: 'utf8',
    });
    if (r.status !== 0) {
      throw new Error(`installing ${spec} failed (exit ${r.status ?? r.signal ?? r.error?.message})${quiet ? `:\n${r.stderr}` : '; its output is above'}.\n` +
        'Check that this machine reaches the npm registry; the next run starts again (or: node scripts/install-clis.mjs --force).');
    }
    if (!fs.existsSync(p.bin)) {
      throw new Error(`${spec} installed but its native binary ${p.bin} is missing (no platform package for ${process.platform}-${process.arch}?)`);
    }
    const run = commandOf(p, ['--version']);
    const v = spawnSync(run.file, run.args, { encoding: 'utf8', timeout: 60_000 });
    if (v.status !== 0 || !v.stdout.includes(p.version)) {
      throw new Error(`${p.bin} --version did not answer ${p.version} (exit ${v.status}): ${v.stdout}${v.stderr}`);
    }
    fs.writeFileSync(path.join(p.dir, '.complete'), new Date().toISOString());
    log(`${spec} done in ${Math.round((Date.now() - started) / 1000)} s`);
    return result();
  });
}

/** Claude Code, installed once: `{ bin, version, dir, wrapper }`; run `bin` (a native executable). */
export function ensureClaudeCode(opts = {}) {
  return ensure(claudeCodePaths(), `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`, opts);
}

/** Codex, installed once: `{ bin, version, dir, wrapper }`; run `bin` (a native executable). */
export function ensureCodex(opts = {}) {
  return ensure(codexPaths(), `@openai/codex@${CODEX_VERSION}`, opts);
}

/** Gemini CLI, installed once; run it with `commandOf(p, args)` (Node and its bundle). */
export function ensureGeminiCli(opts = {}) {
  return ensure(geminiCliPaths(), `@google/gemini-cli@${GEMINI_CLI_VERSION}`, opts);
}

/** GitHub Copilot CLI, installed once; `bin` is its native executable. */
export function ensureCopilotCli(opts = {}) {
  return ensure(copilotCliPaths(), `@github/copilot@${COPILOT_CLI_VERSION}`, opts);
}

/** OpenCode, installed once; `bin` is its native executable. */
export function ensureOpenCode(opts = {}) {
  return ensure(openCodePaths(), `opencode-ai@${OPENCODE_VERSION}`, opts);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const force = process.argv.includes('--force');
    const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
    const want = names.length ? names : ['claude', 'codex'];
    const out = {};
    if (want.includes('claude')) out.claude = ensureClaudeCode({ force });
    if (want.includes('codex')) out.codex = ensureCodex({ force });
    if (want.includes('gemini')) out.gemini = ensureGeminiCli({ force });
    if (want.includes('copilot')) out.copilot = ensureCopilotCli({ force });
    if (want.includes('opencode')) out.opencode = ensureOpenCode({ force });
    console.log(JSON.stringify(out));
  } catch (e) {
    console.error(`[install-clis] ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
