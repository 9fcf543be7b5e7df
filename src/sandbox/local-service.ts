// The person's local service (#51): the sandbox's server in its service mode (server.ts: no demo,
// no control surface, sign-ins allowed in the editor), one per person on this computer. This file
// is its start and its end around startSandbox: the lock that makes a second start find the
// running one (and two at once make one), this computer's identity, the files that announce it,
// and their removal however the process ends that it can see. A SIGKILL removes nothing: every
// reader ignores (and removes) a file naming a dead process (src/bridge/process-alive.ts).
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { bridgeHome, SERVICE_FILE } from '../bridge/home';
import { LOCAL_SERVICE_FILES } from '../bridge/service-files';
import { processGone, removeIfUnchanged } from '../bridge/process-alive';
import { readServiceState, type ServiceState } from '../bridge/service-state';

export { readServiceState, type ServiceState };
import { writeWholeSync } from '../bridge/write-whole';
import type { RunningSandbox } from './index';
import { isSandboxMade } from './identity-places';
import { newIdentity, publicOf, readIdentity, writeIdentity } from './machine-file';
import { newControlSecret } from './request-guard';

export type ServiceLock = { kind: 'ours'; file: string } | { kind: 'running'; state: ServiceState };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fileIn = (home: string, name: keyof typeof LOCAL_SERVICE_FILES) => join(home, LOCAL_SERVICE_FILES[name]);

/** The home folder, made or narrowed to 0700: it holds the keys. */
export function makeHome(home: string): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  chmodSync(home, 0o700);
}

/**
 * Takes the home's lock (created exclusively, naming this process) or finds the service that
 * holds it. A lock naming a dead process is taken over under a second exclusive file, so two
 * starts that both found it stale do not both take it.
 */
export async function takeServiceLock(home: string, waitMs = 20_000): Promise<ServiceLock> {
  makeHome(home);
  const lock = fileIn(home, 'lock');
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      try { writeSync(fd, `${process.pid}\n`); } finally { closeSync(fd); }
      return { kind: 'ours', file: lock };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let text: string;
    try { text = readFileSync(lock, 'utf8'); } catch { continue; } // released meanwhile
    const holder = Number.parseInt(text, 10);
    if (!processGone(holder) && holder !== process.pid) {
      const state = readServiceState(home);
      if (state?.pid === holder) return { kind: 'running', state };
      if (Date.now() > deadline) throw new Error(`another start of the local service (process ${holder}) did not finish within ${Math.round(waitMs / 1000)} s; see ${fileIn(home, 'log')}`);
      await sleep(50); // it is starting: its service.json comes soon
      continue;
    }
    await takeOver(lock, text);
  }
}

async function takeOver(lock: string, staleText: string): Promise<void> {
  const guard = `${lock}.takeover`;
  try {
    closeSync(openSync(guard, 'wx', 0o600));
  } catch {
    // Another start takes it over now; a guard left by a start that died mid-way is old.
    try { if (Date.now() - statSync(guard).mtimeMs > 5_000) rmSync(guard, { force: true }); } catch { /* gone */ }
    await sleep(20);
    return;
  }
  try {
    removeIfUnchanged(lock, staleText);
  } finally {
    rmSync(guard, { force: true });
  }
}

/** What an ask key kept in the home looks like (newControlSecret's 256 bits, base64url). */
const ASK_KEY_FORM = /^[A-Za-z0-9_-]{43}$/;

/**
 * The ask key of the last run, or a new one kept for the next. The store keeps the assistants'
 * sessions and their keys across a restart (a crash too), and a hook finds a session's key by a
 * hash of the ask key (bridge/session-keys.ts): with a new key each start, a session that lived
 * on was refused (409) and its prompts fell back to the CLI until it ended.
 */
export function keptAskKey(home: string): string {
  const file = fileIn(home, 'askKey');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (ASK_KEY_FORM.test(kept)) return kept;
  } catch { /* none yet */ }
  const key = newControlSecret();
  // Not kept (a full or read-only disk): this run uses it; the store's open then says what is wrong.
  try { writeWholeSync(file, `${key}\n`); } catch { /* the next start makes another */ }
  return key;
}

/** The port the last run used, when it is free now: a window's sign-in names the address (`resource`). */
export async function preferredPort(home: string): Promise<number> {
  let port: number;
  try { port = Number.parseInt(readFileSync(fileIn(home, 'port'), 'utf8'), 10); } catch { return 0; }
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return 0;
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(0));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(port)));
  });
}

/**
 * After startSandbox: this computer's identity (its own, in the home, made once and adopted after),
 * service.json for the editor, local-service.json for the assistants' hooks; all removed on exit.
 */
export function becomeLocalService(running: RunningSandbox, home: string): ServiceState {
  const { sandbox, url } = running;
  if (sandbox.mode !== 'service' || sandbox.ownerKey === undefined) throw new Error('the sandbox was not started in service mode');
  const machineFile = fileIn(home, 'machine');
  const known = readIdentity(machineFile);
  let identity;
  if (known && isSandboxMade(known)) identity = known;
  else {
    try { statSync(machineFile); throw new Error(`${machineFile} is there and is not an identity file this service made; it is left alone: move it away and start again`); } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    identity = newIdentity(hostname() || 'this computer', url);
  }
  if (!sandbox.auth.machines.has(identity.id)) sandbox.auth.machines.set(identity.id, { id: identity.id, name: identity.name, publicJwk: publicOf(identity.privateJwk) });
  writeIdentity(machineFile, { ...identity, baseUrl: url });
  sandbox.ctx.identitiesWritten?.note(machineFile, identity.id, url); // blanked when it stops
  const state: ServiceState = {
    version: 1, url, pid: process.pid, askKey: running.askKey, ownerKey: sandbox.ownerKey, machineFile, home, startedAt: new Date().toISOString(),
  };
  const stateFile = fileIn(home, 'state');
  writeWholeSync(stateFile, `${JSON.stringify(state)}\n`);
  const announcement = join(bridgeHome(), SERVICE_FILE);
  mkdirSync(dirname(announcement), { recursive: true, mode: 0o700 });
  writeWholeSync(announcement, `${JSON.stringify({ url, askKey: running.askKey, pid: process.pid, ...(running.askSocket ? { socket: running.askSocket } : {}) })}\n`);
  sandbox.onSignedIn = (device) => {
    const app = sandbox.auth.core.store.apps.get(device.appId);
    const line = { at: new Date().toISOString(), app: app?.name ?? device.appId, machine: device.machine.name, scopes: device.approvedScopes ?? [] };
    try { writeFileAppend(fileIn(home, 'signIns'), `${JSON.stringify(line)}\n`); } catch (e) { console.error('local service: could not note the sign-in:', (e as Error).message); }
  };
  rmSync(fileIn(home, 'failed'), { force: true });
  writeWholeSync(fileIn(home, 'port'), `${running.port}\n`);
  return state;
}

function writeFileAppend(file: string, line: string): void {
  const fd = openSync(file, 'a', 0o600);
  try { writeSync(fd, line); } finally { closeSync(fd); }
}

/** Removes what this process announced, each file only while it still names this process. */
export function forgetLocalService(home: string): void {
  const mine = (file: string, pidOf: (text: string) => unknown) => {
    try {
      const text = readFileSync(file, 'utf8');
      if (pidOf(text) === process.pid) rmSync(file, { force: true });
    } catch { /* gone */ }
  };
  const jsonPid = (t: string) => (JSON.parse(t) as { pid?: unknown }).pid;
  mine(join(bridgeHome(), SERVICE_FILE), jsonPid);
  mine(fileIn(home, 'state'), jsonPid);
  mine(fileIn(home, 'lock'), (t) => Number.parseInt(t, 10));
}

/** Why the start failed, where the window that started it reads it (and in the log). */
export function noteStartFailed(home: string, message: string): void {
  try {
    makeHome(home);
    writeWholeSync(fileIn(home, 'failed'), `${JSON.stringify({ pid: process.pid, message, at: new Date().toISOString() })}\n`);
  } catch { /* the log has it */ }
}
