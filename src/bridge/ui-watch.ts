// A session whose terminal UI is not the hook's parent (plain `codex`: its hooks run in a shared
// background server, codex-ui.ts). The UI found for the session is claimed in the bridge's home
// (`<session>.ui`, the UI's pid), so that a second UI in the same folder is told apart from it, and
// a watcher ends the session when that UI exits: Codex's server sends SessionEnd only when it
// unloads the thread, about 60 s after the last UI left it by default (`thread_unload_delay_secs`,
// measured), while the person quit at once. The watcher is a small `sh` loop (`kill -0` once a
// second, no Node), started detached once per session and UI; when the UI is gone it runs the
// bridge's own hook with a SessionEnd event, so the session ends as if Codex had said so.
import type * as ChildProcess from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { processGone } from './process-alive';
import { sessionFile } from './session-keys';
import { writeWholeSync } from './write-whole';

const UI_EXT = '.ui';

/** $1 the UI's pid, $2 the event; the rest is the hook command that gets the event on stdin. */
const WATCHER = 'p=$1; e=$2; shift 2; while kill -0 "$p" 2>/dev/null; do sleep 1; done; printf "%s" "$e" | "$@"';

export interface UiSession { dir: string; askKey: string; app: string; appSessionId: string }

export const claimFile = (s: UiSession): string => sessionFile(s.dir, s.askKey, s.app, s.appSessionId, UI_EXT);

/** The UIs that other sessions claimed and that still run (`except`: this session's own claim). */
export function claimedUis(dir: string, except: string): Set<number> {
  const pids = new Set<number>();
  let names: string[];
  try { names = readdirSync(dir).filter((n) => n.endsWith(UI_EXT)); } catch { return pids; }
  for (const n of names) {
    const file = path.join(dir, n);
    if (file === except) continue;
    let pid: number;
    try { pid = Number(readFileSync(file, 'utf8').trim()); } catch { continue; }
    if (!processGone(pid)) pids.add(pid);
  }
  return pids;
}

/** The UI this session claimed, while it runs: the next events need not look for it again. */
export function claimedUi(s: UiSession): number | undefined {
  let pid: number;
  try { pid = Number(readFileSync(claimFile(s), 'utf8').trim()); } catch { return undefined; }
  return processGone(pid) ? undefined : pid;
}

/**
 * Claims `uiPid` for the session and starts its watcher, unless it already has that UI (one
 * watcher per session and UI, whatever the number of events). True when a watcher was started.
 */
export function watchUi(s: UiSession, uiPid: number, endEvent: string, hookArgv: readonly string[]): boolean {
  const file = claimFile(s);
  try { if (Number(readFileSync(file, 'utf8').trim()) === uiPid) return false; } catch { /* not claimed yet */ }
  mkdirSync(s.dir, { recursive: true, mode: 0o700 });
  writeWholeSync(file, String(uiPid), 0o600);
  // Loaded only here: a hook of a session already watched (most events) never loads it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  const { spawn } = require('node:child_process') as typeof ChildProcess;
  // Its own process group, no pipe of the CLI's: it outlives this hook and holds nothing of it.
  spawn('sh', ['-c', WATCHER, 'sh', String(uiPid), endEvent, ...hookArgv], { detached: true, stdio: 'ignore' }).unref();
  return true;
}

/** The session ended: its claim goes (its watcher, if still waiting, then ends nothing). */
export function forgetUi(s: UiSession): void {
  rmSync(claimFile(s), { force: true });
}
