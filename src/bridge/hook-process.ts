// What a hook's own process would know of itself, read from outside through Linux's /proc: the
// hook host (hook-host.ts) serves an event for a launcher process that names its pid, and runs it
// as that process would have: in its environment, its folder, under its parent.
import { readFileSync, readlinkSync } from 'node:fs';
import { readProcStat } from '../api/proc-stat';

export interface HookProcess {
  pid: number;
  ppid: number;
  /** Its environment as the CLI gave it (/proc/<pid>/environ: the one it started with). */
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** `NAME=value` entries, NUL-separated, as /proc/<pid>/environ holds them. */
export function parseEnviron(bytes: Buffer): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const entry of bytes.toString('utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}

/** The process `pid` as a hook would see itself, or undefined when /proc does not say (gone, another user's, not Linux). */
export function hookProcessOf(pid: number, proc = '/proc'): HookProcess | undefined {
  if (!Number.isInteger(pid) || pid <= 1) return undefined;
  const stat = readProcStat(pid, proc);
  if (!stat) return undefined;
  try {
    return { pid, ppid: stat.ppid, env: parseEnviron(readFileSync(`${proc}/${pid}/environ`)), cwd: readlinkSync(`${proc}/${pid}/cwd`) };
  } catch {
    return undefined;
  }
}
