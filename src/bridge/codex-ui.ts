// The Codex terminal UI behind a hook that Codex's background server runs (#54). Plain `codex`
// (0.171) runs its sessions in one shared server per CODEX_HOME (`codex app-server
// --managed-daemon`), started by the first UI and outliving it; hooks run there, with that
// server's environment (the first terminal's), so the hook's parent names no terminal at all
// (measured, docs/cli-hooks.md). The UI that asked is one of the `codex` processes on a terminal,
// of the same CODEX_HOME and in the session's folder: where exactly one fits, or exactly one that
// no other live session claimed (ui-watch.ts), that is the session's terminal. Where none or
// several fit, the terminal is unknown: naming no terminal is better than naming the wrong one.
// Linux only (/proc); elsewhere the hook reports what it did before.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { readProcStat } from '../api/proc-stat';

/** A Codex terminal UI: its process and the terminal program it runs in (its own TERM_PROGRAM). */
export interface CodexUi { pid: number; program?: string }

/** `codex <subcommand>` runs that are no terminal UI talking to the server. */
const NOT_A_UI = new Set(['app-server', 'exec', 'e', 'review', 'mcp-server', 'exec-server', 'sandbox', 'debug', 'features', 'login', 'logout']);

function argvOf(pid: number, proc: string): string[] | undefined {
  try { return readFileSync(path.join(proc, String(pid), 'cmdline'), 'utf8').split('\0').filter((a) => a !== ''); } catch { return undefined; }
}

/** Whether `pid` is Codex's shared background server (where plain `codex` runs its hooks). */
export function isCodexServer(pid: number, proc = '/proc'): boolean {
  const argv = argvOf(pid, proc);
  return !!argv && argv.includes('app-server') && argv.includes('--managed-daemon');
}

function environOf(pid: number, proc: string): Map<string, string> {
  const env = new Map<string, string>();
  try {
    for (const pair of readFileSync(path.join(proc, String(pid), 'environ'), 'utf8').split('\0')) {
      const eq = pair.indexOf('=');
      if (eq > 0) env.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  } catch { /* not ours to read, or gone */ }
  return env;
}

/** The CODEX_HOME a process with environment `env` uses (Codex's own rule: CODEX_HOME, else ~/.codex). */
export function codexHomeOf(env: { get(k: string): string | undefined }): string | undefined {
  const set = env.get('CODEX_HOME');
  if (set) return path.resolve(set);
  const home = env.get('HOME');
  return home ? path.join(home, '.codex') : undefined;
}

/** The UI `pid` as a session names it (its own terminal program). */
export function codexUi(pid: number, proc = '/proc'): CodexUi {
  const program = environOf(pid, proc).get('TERM_PROGRAM');
  return { pid, ...(program ? { program } : {}) };
}

/** `codex` processes on a terminal, of `codexHome`, working in `cwd`, that are UIs of the shared server. */
export function codexUis(o: { cwd: string; codexHome: string; proc?: string }): CodexUi[] {
  const proc = o.proc ?? '/proc';
  const want = path.resolve(o.cwd);
  const found: CodexUi[] = [];
  let pids: string[];
  try { pids = readdirSync(proc).filter((d) => /^\d+$/.test(d)); } catch { return []; }
  for (const name of pids) {
    const pid = Number(name);
    const stat = readProcStat(pid, proc);
    // A UI has a terminal, the server none.
    if (stat?.comm !== 'codex' || stat.ttyNr === 0) continue;
    const argv = argvOf(pid, proc);
    if (!argv || NOT_A_UI.has(argv[1] ?? '') || argv.includes('--no-daemon')) continue;
    let cwd: string;
    try { cwd = readlinkSync(path.join(proc, name, 'cwd')); } catch { continue; }
    if (path.resolve(cwd) !== want) continue;
    const env = environOf(pid, proc);
    if (codexHomeOf(env) !== path.resolve(o.codexHome)) continue;
    found.push(codexUi(pid, proc));
  }
  return found;
}

/**
 * The session's UI among `candidates`: the only one, else the only one no other live session
 * claimed (the person started the second UI after the first one asked). Undefined: not known.
 */
export function pickUi(candidates: readonly CodexUi[], claimed: ReadonlySet<number>): CodexUi | undefined {
  if (candidates.length === 1) return candidates[0];
  const free = candidates.filter((c) => !claimed.has(c.pid));
  return free.length === 1 ? free[0] : undefined;
}
