// Starts the person's local service (#51) as a process of its own: detached from the window that
// starts it (it outlives that window), on VS Code's own runtime (process.execPath with
// ELECTRON_RUN_AS_NODE=1, so no `node` on the PATH is needed), writing to a log file in its home.
// The service takes its home's lock itself, so two windows starting it at once make one; this
// waits for service.json (never for printed text) or for why it failed. And stops it.
// No `vscode` here: tests run it in plain Node (test/editor-node/service-starter.test.ts).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOCAL_SERVICE_FILES } from '../../bridge/service-files';
import { processGone } from '../../bridge/process-alive';
import { lastStartFailure, readServiceState, type ServiceState } from '../../bridge/service-state';

export { lastStartFailure };

export type { ServiceState };

/**
 * The store engineer's option of sandbox.js (#51 part 2): the durable store's file. Passed even
 * to a sandbox.js that does not know it yet (unknown options are ignored there).
 */
export const STORE_FLAG = '--store';
/** Past this, a log is started afresh at the next start (the last run's is kept beside it). */
const LOG_MAX_BYTES = 1024 * 1024;

export interface StartWith {
  /** dist/sandbox.js of this extension. */
  script: string;
  /** The runtime: VS Code's own (process.execPath). */
  execPath: string;
  /** The service's home (<bridge home>/service). */
  home: string;
  /** Given to the service: ASSISTANT_CARDS_HOME among them moves its home (tests). */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** The service refused to start, with its own words (a store it cannot open, an identity file it leaves alone). */
export class ServiceStartError extends Error {
  constructor(message: string, readonly logFile: string) { super(message); }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The running service, or the one this starts. `started` says whether this call started it. */
export async function ensureLocalService(w: StartWith): Promise<{ state: ServiceState; started: boolean }> {
  const running = readServiceState(w.home);
  if (running) return { state: running, started: false };
  const log = path.join(w.home, LOCAL_SERVICE_FILES.log);
  let out: number;
  try {
    fs.mkdirSync(w.home, { recursive: true, mode: 0o700 });
    try { if (fs.statSync(log).size > LOG_MAX_BYTES) fs.renameSync(log, `${log}.1`); } catch { /* none yet */ }
    out = fs.openSync(log, 'a', 0o600);
  } catch (e) {
    // The service could not say it (it writes its words in this folder): the window says what to do.
    throw new ServiceStartError(homeUnwritable(w.home, e as NodeJS.ErrnoException), log);
  }
  let exited: number | null | undefined;
  let child;
  try {
    child = spawn(w.execPath, [w.script, '--service', STORE_FLAG, path.join(w.home, LOCAL_SERVICE_FILES.store)], {
      detached: true, // its own process group: the window's end does not end it
      stdio: ['ignore', out, out],
      env: { ...(w.env ?? process.env), ELECTRON_RUN_AS_NODE: '1' },
      windowsHide: true,
    });
  } finally {
    fs.closeSync(out);
  }
  child.once('exit', (code) => { exited = code; });
  child.once('error', () => { exited = -1; });
  child.unref();
  const failedFile = path.join(w.home, LOCAL_SERVICE_FILES.failed);
  const deadline = Date.now() + (w.timeoutMs ?? 20_000);
  for (;;) {
    const state = readServiceState(w.home);
    if (state) return { state, started: state.pid === child.pid };
    const failed = failureOf(failedFile, child.pid);
    if (failed) throw new ServiceStartError(failed, log);
    if (exited !== undefined) {
      // It ended without a service: a start that found another (which then vanished), a crash, or a
      // disk too full for it to write why.
      throw new ServiceStartError(failureOf(failedFile, child.pid) ?? diskFull(w.home) ?? `the local service exited (code ${exited}) before it was ready; see ${log}`, log); // l10n-ignore: the log's words, as the service's own are
    }
    if (Date.now() > deadline) throw new ServiceStartError(`the local service was not ready within ${Math.round((w.timeoutMs ?? 20_000) / 1000)} s; see ${log}`, log); // l10n-ignore: the log's words, as the service's own are
    await sleep(50);
  }
}

/** Below this, a disk is too full for the service to keep its store (and to say why). */
const FULL_BELOW_BYTES = 256 * 1024;

function diskFull(home: string): string | undefined {
  try {
    const s = fs.statfsSync(home);
    const free = s.bavail * s.bsize;
    return free < FULL_BELOW_BYTES ? `the disk of ${home} is full (${Math.floor(free / 1024)} KB free). Free space on it, then start the local service again.` : undefined; // l10n-ignore: the log's words, as the service's own are
  } catch { return undefined; }
}

function homeUnwritable(home: string, e: NodeJS.ErrnoException): string {
  if (e.code === 'ENOSPC') return diskFull(home) ?? `the disk of ${home} is full. Free space on it, then start the local service again.`; // l10n-ignore: as above
  return `its folder ${home} cannot be written (${e.code ?? e.message}). Make it writable by you (or free space on its disk), then start the local service again.`; // l10n-ignore: as above
}

function failureOf(file: string, pid: number | undefined): string | undefined {
  try {
    const f = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid?: unknown; message?: unknown };
    return f.pid === pid && typeof f.message === 'string' ? f.message : undefined;
  } catch {
    return undefined;
  }
}

/** Stops the running service (SIGTERM: it removes its announcements); false when none ran. */
export async function stopLocalService(home: string, timeoutMs = 10_000): Promise<boolean> {
  const state = readServiceState(home);
  if (!state) return false;
  try { process.kill(state.pid, 'SIGTERM'); } catch { return false; }
  const deadline = Date.now() + timeoutMs;
  while (!processGone(state.pid)) {
    if (Date.now() > deadline) { process.kill(state.pid, 'SIGKILL'); break; }
    await sleep(50);
  }
  return true;
}
