// What the host tests of a real assistant CLI in a terminal of this window share: the CLI installed
// into the test cache, each wait a state that keeps a screenshot when it times out, the card the
// CLI's hook made found on the service by its title, a terminal closed only once its CLI exited,
// and Claude Code started in a terminal as a person runs it.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, until } from '../cards-helpers';
import { driver } from './driver';
import type { RunningSandbox } from './sandbox';

/** The CLI's executable, installed on first use by scripts/install-clis.mjs (a first install downloads hundreds of MB). */
export function installedCli(name: 'claude' | 'codex'): string {
  const root = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'install-clis.mjs'), name], { encoding: 'utf8', timeout: 590_000 });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, { bin: string }>)[name]!.bin;
}

/** `until`, keeping a screenshot named `<prefix>-<what>` when the state never comes. */
export function shootingSteps(prefix: string) {
  return async <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms: number): Promise<T> => {
    try {
      return await until(what, probe, ms);
    } catch (e) {
      await driver.screenshot(`${prefix}-${what.replace(/\W+/g, '-')}`).catch(() => undefined);
      throw e;
    }
  };
}

/** The id of the first card made on the service with `title`, or undefined while there is none. */
export async function cardMadeTitled(sb: Pick<RunningSandbox, 'control'>, title: string): Promise<string | undefined> {
  const { changes } = await sb.control<{ changes: { type: string; cardId: string }[] }>('GET', '/_sandbox/changes');
  for (const c of changes.filter((x) => x.type === 'card.created')) {
    const made = await sb.control<{ title: string }>('GET', `/_sandbox/cards/${c.cardId}`);
    if (made.title === title) return c.cardId;
  }
  return undefined;
}

/** Closes the CLI's terminal and waits until the CLI (the terminal's own process) is gone: it writes to its folder as it exits. */
export async function closeCliTerminal(terminal: vscode.Terminal | undefined): Promise<void> {
  const pid = await terminal?.processId;
  terminal?.dispose();
  if (!pid) return;
  await until('the CLI exited', () => { try { process.kill(pid, 0); return undefined; } catch { return true; } }, 30_000).catch(() => undefined);
}

/** What Claude Code is started with in `claudeInTerminal`. */
export interface ClaudeStart {
  bin: string;
  /** Its HOME; its settings folder (CLAUDE_CONFIG_DIR, where Connect wrote the hooks) is `<home>/.claude`. */
  home: string;
  /** The folder it works in (trusted, as its first start would ask). */
  project: string;
  /** The scripted model's address (test/bridge/scripted-model.ts). */
  modelUrl: string;
  /** Its first prompt; none: it waits for what is typed. */
  prompt?: string;
  /** ASSISTANT_CARDS_HOME of its hooks: where the service they ask through announced itself. */
  bridgeHome: string;
}

const CLAUDE_KEY = 'sk-ant-scripted-model-key-0001';

/** Words quoted for a POSIX shell. */
const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The environment Claude Code runs with: its own folders, the scripted model and its key, no traffic besides. */
function claudeEnv(o: ClaudeStart): Record<string, string> {
  return {
    HOME: o.home, CLAUDE_CONFIG_DIR: path.join(o.home, '.claude'), ANTHROPIC_BASE_URL: o.modelUrl, ANTHROPIC_API_KEY: CLAUDE_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1',
    ASSISTANT_CARDS_HOME: o.bridgeHome,
  };
}

/** Claude Code's arguments: permission mode `default`, and the first prompt if any. */
const claudeArgs = (o: ClaudeStart) => ['--permission-mode', 'default', ...(o.prompt ? [o.prompt] : [])];

/**
 * The real Claude Code, interactive, in a terminal of this window named "claude: shop", as a
 * person runs it: onboarding done, the scripted model's key and `project` trusted (what its first
 * start would ask), permission mode `default`. `screenLog`: it runs under `script`, which keeps
 * everything it writes to its terminal in that file as it is written, so a test reads its screen.
 */
export function claudeInTerminal(o: ClaudeStart & { screenLog?: string }): vscode.Terminal {
  const config = path.join(o.home, '.claude');
  fs.mkdirSync(config, { recursive: true });
  fs.writeFileSync(path.join(config, '.claude.json'), JSON.stringify({
    hasCompletedOnboarding: true, theme: 'dark', customApiKeyResponses: { approved: [CLAUDE_KEY.slice(-20)], rejected: [] },
    projects: { [o.project]: { hasTrustDialogAccepted: true } },
  }));
  const start = o.screenLog
    // `stty size` first: the size its screen is drawn at (screen-log.ts).
    ? { shellPath: 'script', shellArgs: ['--quiet', '--flush', '--command', `stty size > ${quoted(`${o.screenLog}.size`)} 2>/dev/null; ${['exec', o.bin, ...claudeArgs(o)].map(quoted).join(' ')}`, o.screenLog] }
    : { shellPath: o.bin, shellArgs: claudeArgs(o) };
  const terminal = vscode.window.createTerminal({ name: 'claude: shop', cwd: o.project, ...start, env: claudeEnv(o) });
  terminal.show(true);
  return terminal;
}

/**
 * The line a person types at a shell prompt to start Claude Code as `claudeInTerminal` does (its
 * folders set up there first): into its folder, then the command with its environment before it.
 */
export function claudeCommandLine(o: ClaudeStart): string {
  const env = Object.entries(claudeEnv(o)).map(([k, v]) => `${k}=${quoted(v)}`);
  return `cd ${quoted(o.project)} && ${[...env, quoted(o.bin), ...claudeArgs(o).map(quoted)].join(' ')}`;
}

/**
 * Ends the Claude Code processes that talk to the model at `modelUrl` (SIGTERM, then SIGKILL after
 * 10 s): one started from a line typed in another window's terminal, of which this window holds no
 * handle, is found by its environment (Linux /proc). Resolves once none is left.
 */
export async function endClaudeTalkingTo(modelUrl: string): Promise<void> {
  const mine = () => fs.readdirSync('/proc').map(Number).filter((pid) => {
    if (!Number.isInteger(pid) || pid === process.pid) return false;
    try { return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`ANTHROPIC_BASE_URL=${modelUrl}`); } catch { return false; }
  });
  const signal = (sig: NodeJS.Signals) => { for (const pid of mine()) { try { process.kill(pid, sig); } catch { /* gone */ } } };
  signal('SIGTERM');
  if (await until('Claude Code ended', () => mine().length === 0 || undefined, 10_000).then(() => true, () => false)) return;
  signal('SIGKILL');
  await until('Claude Code ended (SIGKILL)', () => mine().length === 0 || undefined, 10_000);
}
