// Whether the process an announcement names still runs (#51 F1). A local-service.json, a
// service.json or a lock can outlive their process (a SIGKILL removes nothing); a file naming a
// dead process is ignored. The local service (src/sandbox/local-service.ts) and the editor's
// launcher use this too.
import * as fs from 'node:fs';
import { readProcStat } from '../api/proc-stat';

/**
 * Gone: no such process, or one that has ended and waits only to be reaped (a zombie still
 * answers signal 0; Linux shows its state). One that exists but is not ours to signal (EPERM)
 * lives.
 */
export function processGone(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  if (process.platform !== 'linux') return false;
  const state = readProcStat(pid)?.state;
  return state === undefined || state === 'Z' || state === 'X'; // undefined: gone between the two looks
}

/** Removes `file` when it still holds `text` (what the reader found naming a dead process). */
export function removeIfUnchanged(file: string, text: string): void {
  try {
    if (fs.readFileSync(file, 'utf8') === text) fs.rmSync(file, { force: true });
  } catch {
    // already gone
  }
}
