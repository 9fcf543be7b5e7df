// The processes a program runs below it (Linux /proc), watched from outside: a CLI's hooks, each
// a process of its own, seen starting and ending without touching the CLI or the hook.
import * as fs from 'node:fs';

const read = (file: string): string => { try { return fs.readFileSync(file, 'utf8'); } catch { return ''; } };

/** The processes below `pid` now: each of its threads' children, and theirs. */
export function descendants(pid: number): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    let tasks: string[];
    try { tasks = fs.readdirSync(`/proc/${p}/task`); } catch { return; }
    for (const t of tasks) {
      for (const c of read(`/proc/${p}/task/${t}/children`).split(' ').filter(Boolean).map(Number)) { out.push(c); walk(c); }
    }
  };
  walk(pid);
  return out;
}

export interface ProcessWatch {
  /** When the first matching process was seen (Date.now()); undefined while none was. */
  firstSeen(): number | undefined;
  /** How many matching processes run now. */
  running(): number;
  /** When the last one seen was found gone. */
  lastGone(): number | undefined;
  stop(): void;
}

/**
 * Watches, every 20 ms, the processes below `pid` whose command line (arguments joined by spaces)
 * `matches`: a process living 20 ms or more is seen.
 */
export function watchBelow(pid: number, matches: (cmdline: string) => boolean): ProcessWatch {
  let first: number | undefined;
  let gone: number | undefined;
  let now = new Set<number>();
  const look = () => {
    const found = new Set(descendants(pid).filter((p) => matches(read(`/proc/${p}/cmdline`).replace(/\0/g, ' '))));
    if (found.size && first === undefined) first = Date.now();
    if (now.size && !found.size) gone = Date.now();
    now = found;
  };
  look();
  const timer = setInterval(look, 20);
  return { firstSeen: () => first, running: () => now.size, lastGone: () => gone, stop: () => clearInterval(timer) };
}
