// The terminal an assistant runs in, as DESIGN's live session reports it: a process in that
// terminal (the extension walks up from it to the terminal's shell), its tty, and the program.
import type * as ChildProcess from 'node:child_process';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { readProcStat, ttyDevice } from '../api/proc-stat';
import { codexHomeOf, codexUi, codexUis, isCodexServer, pickUi } from './codex-ui';

/**
 * `ps`, where /proc does not answer (macOS, BSD): node:child_process is loaded only then, not in
 * every hook's start on Linux (#53/#54, permissionToTreeP95Ms).
 */
function execFileSync(file: string, args: string[], o: { encoding: 'utf8'; timeout: number }): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when used, see above
  return (require('node:child_process') as typeof ChildProcess).execFileSync(file, args, o);
}

export interface TerminalFacts { pid?: number; tty?: string; program?: string }

interface Proc { ppid: number; comm: string; ttyNr: number }

/** Elsewhere (macOS, BSD): `ps`; the tty only as "has one or not". */
function psProc(pid: number): Proc | undefined {
  try {
    const out = execFileSync('ps', ['-o', 'ppid=,tty=,comm=', '-p', String(pid)], { encoding: 'utf8', timeout: 500 }).trim();
    const m = /^(\d+)\s+(\S+)\s+(.+)$/.exec(out);
    if (!m) return undefined;
    const tty = m[2]!;
    return { ppid: Number(m[1]), ttyNr: tty === '?' || tty === '??' ? 0 : 1, comm: m[3]!.split('/').pop()!.replace(/^-/, '') };
  } catch {
    return undefined;
  }
}

const proc = (pid: number): Proc | undefined => (process.platform === 'linux' ? readProcStat(pid) : psProc(pid));

/** A pty's or a console's device; any other kind (and /dev/tty, no one terminal's name) is left to `ps`. */
function linuxTtyName(nr: number): string | undefined {
  const name = ttyDevice(nr)?.name;
  return name === undefined || name === 'tty' ? undefined : `/dev/${name}`;
}

/**
 * The terminal device `pid` runs on. Our own tty is the shell's too: reading our own stays right
 * even when a shell exec'd us (`bash -c node ...`) and our parent is no shell.
 */
export function detectTty(pid = process.pid): string | undefined {
  if (process.platform === 'win32') return undefined;
  if (process.platform === 'linux') {
    // /proc is what `ps` reads too: when it answers, a `ps` would only say the same, at the cost
    // of a process (two per hook, tens of ms on the card's way to the tree: #53/#54 latency).
    // A device of another kind than a pty or a console is left to `ps` to name.
    const p = readProcStat(pid);
    if (p?.ttyNr === 0) return undefined;
    const t = linuxTtyName(p?.ttyNr ?? 0);
    if (t) return t;
  }
  try {
    const out = execFileSync('ps', ['-o', 'tty=', '-p', String(pid)], { encoding: 'utf8', timeout: 500 }).trim();
    if (!out || out === '?' || out === '??') return undefined;
    return out.startsWith('/dev/') ? out : `/dev/${out}`;
  } catch {
    return undefined;
  }
}

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'fish', 'cmd.exe', 'powershell', 'pwsh']);

/**
 * The process a hook's CLI runs as: the hook's parent, or above it while that is a shell the CLI
 * ran the hook in (`sh -c`): it ends with the hook, while the CLI lives on in the terminal. A CLI
 * runs its hooks without the terminal (measured: Claude Code's hook shell has no tty), so the
 * climb stops only at a shell that has the terminal and a parent that has none: the terminal's
 * own shell, under the editor's pty host (where `ask` run at a prompt starts).
 */
export function cliProcess(start = process.ppid): number {
  if (process.platform === 'win32') return start;
  // A hook process serves one event: its CLI's process is walked to once (the terminal and the
  // shared-server check both ask).
  if (start === process.ppid) return (ownCli ??= climb(start));
  return climb(start);
}

let ownCli: number | undefined;

function climb(start: number): number {
  let pid = start;
  for (let i = 0; i < 4; i++) {
    const p = proc(pid);
    if (!p || !SHELLS.has(p.comm) || p.ppid <= 1) return pid;
    const parent = proc(p.ppid);
    if (!parent || (p.ttyNr !== 0 && parent.ttyNr === 0)) return pid;
    pid = p.ppid;
  }
  return pid;
}

/**
 * The process that runs a hook event and its parent: this process (a hook run as `bridge.js hook`),
 * or the launcher whose event the hook host serves (hook-host.ts), which names its own pid.
 */
export interface HookAt { self: number; parent: number }

/** The CLI's process above a hook: walked once in a hook's own process, each time in the hook host (Linux only). */
const cliOf = (at: HookAt | undefined): number => (at ? climb(at.parent) : cliProcess());

/** A hook's terminal: its CLI's process, the tty, and the program (`vscode` in an editor terminal). */
export function hookTerminal(env: NodeJS.ProcessEnv = process.env, at?: HookAt): TerminalFacts {
  const pid = cliOf(at);
  // The CLI's tty, not the hook's: the hook runs without one.
  const tty = detectTty(pid) ?? detectTty(at?.self);
  return { pid, ...(tty ? { tty } : {}), ...(env.TERM_PROGRAM ? { program: env.TERM_PROGRAM } : {}) };
}

/** The terminal of a session whose hooks run in a shared server, and the UI process it runs in. */
export interface ServerUi { terminal: TerminalFacts; pid?: number }

/**
 * Where the hook's CLI is Codex's shared background server (plain `codex`, Linux): the terminal of
 * the session's UI (codex-ui.ts), or none at all when it cannot be told, never the server's (which
 * the first UI started, so the extension walked up to the FIRST terminal). `claimed`: the UIs other
 * live sessions have. Undefined: the hook's parent is the CLI itself (`hookTerminal` says where).
 */
export function sharedServerUi(env: NodeJS.ProcessEnv, at: { cwd: string; claimed: () => ReadonlySet<number>; mine?: () => number | undefined }, hook?: HookAt): ServerUi | undefined {
  if (process.platform !== 'linux' || !isCodexServer(cliOf(hook))) return undefined;
  const ui = uiOfSession(env, at);
  if (!ui) return { terminal: {} };
  const tty = detectTty(ui.pid);
  return { terminal: { pid: ui.pid, ...(tty ? { tty } : {}), ...(ui.program ? { program: ui.program } : {}) }, pid: ui.pid };
}

/**
 * The session's own UI, claimed at an earlier event and still running (two reads), else the one
 * found among the processes (every process's stat read: about 20 ms on a busy machine, so only
 * until the session has its UI, never on each permission request).
 */
function uiOfSession(env: NodeJS.ProcessEnv, at: { cwd: string; claimed: () => ReadonlySet<number>; mine?: () => number | undefined }) {
  const mine = at.mine?.();
  if (mine !== undefined) return codexUi(mine);
  // The server's environment is the hook's: its CODEX_HOME is the one its UIs share.
  const codexHome = codexHomeOf({ get: (k) => env[k] }) ?? path.join(homedir(), '.codex');
  const candidates = codexUis({ cwd: at.cwd, codexHome });
  return pickUi(candidates, candidates.length > 1 ? at.claimed() : new Set());
}
