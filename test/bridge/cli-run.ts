// Runs a real assistant CLI (Claude Code or Codex, from scripts/install-clis.mjs) once, non-
// interactively, against a scripted model (./scripted-model.ts), in a throwaway box: its own HOME,
// CLAUDE_CONFIG_DIR / CODEX_HOME and project folder under one temp dir, so the real user's
// ~/.claude and ~/.codex are never read or written. Hooks are given per event and written to the
// CLI's own hook file (Claude: <config>/settings.json "hooks"; Codex: <CODEX_HOME>/hooks.json).
// The facts behind the flags and files here are in docs/cli-hooks.md.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ScriptedModel } from './scripted-model';

/** One command hook on one event. `timeout` is in seconds (both CLIs). */
export interface HookSpec {
  event: string;
  command: string;
  /** Tool-name matcher for tool events (PreToolUse, PermissionRequest, PostToolUse...); omitted for the rest. */
  matcher?: string;
  timeout?: number;
}

export interface Box {
  root: string;
  home: string;
  project: string;
  dispose(): void;
}

/** A fresh temp dir with home/ and project/ in it; dispose() removes it all. */
export function makeBox(prefix = 'cli-run-'): Box {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  return { root, home, project, dispose: () => fs.rmSync(root, { recursive: true, force: true }) };
}

export interface RunOptions {
  bin: string;
  model: ScriptedModel;
  box: Box;
  prompt: string;
  hooks?: HookSpec[];
  /** The hooks object as written (Connect's entries), instead of `hooks`. */
  hooksJson?: Record<string, unknown>;
  /** Kill the CLI (SIGKILL) after this long; the result says timedOut. */
  timeoutMs?: number;
  /** Added after the CLI's own non-interactive arguments, before the prompt. */
  extraArgs?: string[];
  env?: Record<string, string>;
  /** Told the CLI's process id once it is spawned. */
  onSpawn?: (pid: number) => void;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
  args: string[];
}

/** The hooks object both CLIs read: { Event: [{ matcher?, hooks: [{ type: 'command', command, timeout? }] }] }. */
export function hooksObject(hooks: HookSpec[]): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const h of hooks) {
    (out[h.event] ??= []).push({
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      hooks: [{ type: 'command', command: h.command, ...(h.timeout !== undefined ? { timeout: h.timeout } : {}) }],
    });
  }
  return out;
}

/**
 * Claude Code: `claude -p --output-format json <prompt>` with ANTHROPIC_BASE_URL at the model and a
 * fake ANTHROPIC_API_KEY; permission mode stays `default`, so a Bash command outside the project
 * asks, and the PermissionRequest hook answers it (no hook answer = denied, in -p mode).
 */
export function runClaude(o: RunOptions): Promise<RunResult> {
  const config = path.join(o.box.home, '.claude');
  fs.mkdirSync(config, { recursive: true });
  fs.writeFileSync(path.join(config, 'settings.json'), JSON.stringify({ hooks: o.hooksJson ?? hooksObject(o.hooks ?? []) }, null, 2));
  const args = ['-p', '--output-format', 'json', ...(o.extraArgs ?? []), o.prompt];
  return run(o, args, {
    HOME: o.box.home,
    CLAUDE_CONFIG_DIR: config,
    ANTHROPIC_BASE_URL: o.model.url,
    ANTHROPIC_API_KEY: 'sk-ant-scripted-model',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
  });
}

/** The config.toml that points Codex at the scripted model and keeps it off the network. */
export function codexConfig(modelUrl: string): string {
  return [
    'model = "gpt-5"',
    'model_provider = "scripted"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.scripted]',
    'name = "scripted"',
    `base_url = "${modelUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "SCRIPTED_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[features]',
    'hooks = true',
    'plugins = false',
    'apps = false',
    'remote_plugin = false',
    '',
  ].join('\n');
}

/**
 * Codex: `codex exec --json --skip-git-repo-check --dangerously-bypass-hook-trust --approve-for-me`.
 * `codex exec` alone runs with approval policy "never" (a command needing approval is refused and no
 * PermissionRequest hook runs); --approve-for-me routes approvals to its reviewer, and the
 * PermissionRequest hook runs first (its answer, if any, wins; the scripted model's step needs
 * `escalate: true` so the command asks). Hook trust is bypassed for this run only.
 */
export function runCodex(o: RunOptions): Promise<RunResult> {
  const codexHome = path.join(o.box.home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  fs.writeFileSync(path.join(codexHome, 'config.toml'), codexConfig(o.model.url));
  fs.writeFileSync(path.join(codexHome, 'hooks.json'), JSON.stringify({ hooks: o.hooksJson ?? hooksObject(o.hooks ?? []) }, null, 2));
  const args = ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '--approve-for-me', ...(o.extraArgs ?? []), o.prompt];
  return run(o, args, { HOME: o.box.home, CODEX_HOME: codexHome, SCRIPTED_API_KEY: 'sk-scripted-model', RUST_LOG: 'error' });
}

/**
 * Gemini CLI: `node gemini.js -p <prompt> --approval-mode yolo --output-format json` with
 * GOOGLE_GEMINI_BASE_URL at the model and a fake GEMINI_API_KEY; its home (GEMINI_CLI_HOME) holds
 * .gemini/settings.json with the hooks. Without `yolo`, `-p` leaves out every tool that would ask
 * (it cannot prompt), so no BeforeTool would run for them; with it, the BeforeTool hook is the only gate.
 */
export function runGemini(o: RunOptions): Promise<RunResult> {
  const settingsDir = path.join(o.box.home, '.gemini');
  fs.mkdirSync(settingsDir, { recursive: true });
  fs.writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify({
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    telemetry: { enabled: false },
    hooks: o.hooksJson ?? hooksObject(o.hooks ?? []),
  }, null, 2));
  const args = [o.bin, '-p', o.prompt, '--approval-mode', 'yolo', '--output-format', 'json', ...(o.extraArgs ?? [])];
  return run({ ...o, bin: process.execPath }, args, {
    HOME: o.box.home,
    GEMINI_CLI_HOME: o.box.home,
    GEMINI_API_KEY: 'scripted-model-key',
    GOOGLE_GEMINI_BASE_URL: o.model.url,
    GEMINI_CLI_NO_RELAUNCH: 'true',
  });
}

/**
 * GitHub Copilot CLI: `copilot -p <prompt>` with its own provider (COPILOT_PROVIDER_BASE_URL at the
 * model's `/v1`, the Responses API, COPILOT_OFFLINE) and `hooksJson` as a whole hook file in
 * COPILOT_HOME/hooks/. Its native binary unpacks its JavaScript once into COPILOT_PKG_CACHE_HOME:
 * kept beside the install in the test cache, so only the first run pays for it.
 */
export function runCopilot(o: RunOptions): Promise<RunResult> {
  const copilotHome = path.join(o.box.home, '.copilot');
  fs.mkdirSync(path.join(copilotHome, 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(copilotHome, 'hooks', 'assistant-cards.json'), JSON.stringify(o.hooksJson ?? {}, null, 2));
  const installDir = path.resolve(path.dirname(o.bin), '..', '..', '..');
  const args = ['-p', o.prompt, ...(o.extraArgs ?? [])];
  return run(o, args, {
    HOME: o.box.home,
    COPILOT_HOME: copilotHome,
    COPILOT_PKG_CACHE_HOME: path.join(installDir, 'unpacked'),
    COPILOT_CACHE_HOME: path.join(o.box.home, '.cache', 'copilot'),
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: `${o.model.url}/v1`,
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_WIRE_API: 'responses',
    COPILOT_PROVIDER_API_KEY: 'sk-scripted-model',
    COPILOT_MODEL: 'gpt-5',
  });
}

/** This process's environment without anything that would point a CLI elsewhere (its keys, homes, providers). */
export function cliBaseEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) =>
    !/^(ANTHROPIC_|CLAUDE_|CODEX_|OPENAI_|GEMINI_|GOOGLE_|COPILOT_|GITHUB_|GH_)/.test(k) && k !== 'HOME' && k !== 'XDG_CONFIG_HOME')) as Record<string, string>;
}

function run(o: RunOptions, args: string[], env: Record<string, string>): Promise<RunResult> {
  const base = cliBaseEnv();
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(o.bin, args, { cwd: o.box.project, env: { ...base, ...env, ...o.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) o.onSpawn?.(child.pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString('utf8'); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString('utf8'); });
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, o.timeoutMs ?? 60_000);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started, args });
    });
  });
}

export interface LoggingHook {
  /** The command to put in a HookSpec (runs the script with this Node). */
  command: string;
  /** Every hook call so far: the parsed stdin JSON of each, in order. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- hook stdin JSON, read loosely in tests
  calls(): any[];
}

/**
 * A tiny Node hook script in `dir` that appends its stdin JSON to a log and prints
 * `outputs[hook_event_name]` (a string as is, anything else as JSON), or nothing.
 */
export function loggingHook(dir: string, outputs: Record<string, unknown> = {}): LoggingHook {
  const script = path.join(dir, 'hook.cjs');
  const log = path.join(dir, 'hook-log.jsonl');
  const answers = path.join(dir, 'hook-outputs.json');
  fs.writeFileSync(answers, JSON.stringify(outputs));
  fs.writeFileSync(script, `const fs = require('node:fs');
let s = '';
process.stdin.on('data', (d) => { s += d; });
process.stdin.on('end', () => {
  let j; try { j = JSON.parse(s); } catch { j = { unparsed: s }; }
  fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(j) + '\\n');
  const out = JSON.parse(fs.readFileSync(${JSON.stringify(answers)}, 'utf8'))[j.hook_event_name];
  if (out !== undefined) process.stdout.write(typeof out === 'string' ? out : JSON.stringify(out));
});
`);
  return {
    command: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`,
    calls: () => fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [],
  };
}

/** The stdout a PermissionRequest hook prints to allow (both CLIs, measured). */
export const ALLOW = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } };
/** The stdout a PermissionRequest hook prints to deny with a message the model sees (both CLIs, measured). */
export const deny = (message: string) => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message } } });
