// The terminal an assistant runs in, as DESIGN's live session reports it: a process in that
// terminal (the extension walks up from it to the terminal's shell), its tty, and the program.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface TerminalFacts { pid?: number; tty?: string; program?: string }

interface Proc { ppid: number; comm: string; ttyNr: number }

function linuxProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const rest = stat.slice(close + 1).trim().split(/\s+/);
    return { comm: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(rest[1]), ttyNr: Number(rest[4]) };
  } catch {
    return undefined;
  }
}

function linuxTtyName(nr: number): string | undefined {
  if (!nr) return undefined;
  const major = (nr >> 8) & 0xfff;
  const minor = (nr & 0xff) | ((nr >>> 12) & 0xfff00);
  if (major >= 136 && major <= 143) return `/dev/pts/${(major - 136) * 256 + minor}`;
  if (major === 4) return minor < 64 ? `/dev/tty${minor}` : `/dev/ttyS${minor - 64}`;
  return undefined;
}

/**
 * The terminal device `pid` runs on. Our own tty is the shell's too: reading our own stays right
 * even when a shell exec'd us (`bash -c node ...`) and our parent is no shell.
 */
export function detectTty(pid = process.pid): string | undefined {
  if (process.platform === 'win32') return undefined;
  if (process.platform === 'linux') {
    const t = linuxTtyName(linuxProc(pid)?.ttyNr ?? 0);
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
 * The process a hook's CLI runs as: the hook's parent, or above it while that is the `sh -c`
 * the CLI ran the hook in (it ends with the hook; the CLI lives on in the terminal).
 */
export function cliProcess(start = process.ppid): number {
  if (process.platform !== 'linux') return start;
  let pid = start;
  for (let i = 0; i < 4; i++) {
    const p = linuxProc(pid);
    if (!p || !SHELLS.has(p.comm) || p.ppid <= 1) return pid;
    const parent = linuxProc(p.ppid);
    // The terminal's own shell has the pty host above it, which has no tty: stop there. A shell
    // below a shell is the terminal's too.
    if (!parent || SHELLS.has(parent.comm) || parent.ttyNr === 0 || parent.ttyNr !== p.ttyNr) return pid;
    pid = p.ppid;
  }
  return pid;
}

/** A hook's terminal: its CLI's process, the tty, and the program (`vscode` in an editor terminal). */
export function hookTerminal(env: NodeJS.ProcessEnv = process.env): TerminalFacts {
  const tty = detectTty();
  return { pid: cliProcess(), ...(tty ? { tty } : {}), ...(env.TERM_PROGRAM ? { program: env.TERM_PROGRAM } : {}) };
}
