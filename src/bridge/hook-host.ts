// The hook host (Linux): one resident process per bridge home that runs the CLIs' hook events, so
// an event costs the launcher a `curl` over a private socket (~25 ms here) instead of starting Node
// (~100 ms here, most of a permission's way to the tree: #53). The launcher (install.ts) sends the
// event as it got it, with its own pid; the host reads that process's environment, folder and
// parent from /proc (hook-process.ts) and runs the event exactly as `bridge.js hook` would in that
// process. A launcher that finds no host, or one this host refuses, runs `bridge.js hook` itself,
// which starts a host for the next event: a host is an optimisation, never a requirement.
//
// Whom the socket serves: it is in a folder only this user may enter (0700, ours), as the local
// service's own socket is (#51 F1). The host ends when idle, when its socket is no longer its own
// (another host took the name, or the home was removed), and when its bridge.js changed on disk
// (an update: the next event starts the new one).
import * as fs from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import * as path from 'node:path';
import { hookProcessOf, type HookProcess } from './hook-process';
import { processGone } from './process-alive';

/** Set by the launcher on `bridge.js hook` when it found no host to run the event: start one. */
export const HOOK_HOST_ENV = 'ASSISTANT_CARDS_HOOK_HOST';

/** The host's folder in the bridge home, and its socket there. */
export const HOOK_HOST_DIR = 'hook-host';
export const HOOK_HOST_SOCKET = 'hooks.sock';
export const hookHostSocket = (home: string): string => path.join(home, HOOK_HOST_DIR, HOOK_HOST_SOCKET);

/** A Unix socket's path has at most 108 bytes (104 on macOS). */
const MAX_SOCKET_PATH = 100;
/** Whether a host can listen on `socket` here (Linux, a path short enough). */
export const hookHostFits = (socket: string): boolean => process.platform === 'linux' && Buffer.byteLength(socket) <= MAX_SOCKET_PATH;
/** Nothing asked for this long: the host ends (the next event starts one again). */
export const HOOK_HOST_IDLE_MS = 20 * 60_000;
/** How often the host looks whether its socket and its bridge.js are still its own. */
const CHECK_MS = 5_000;
/** How often a waiting event looks whether its launcher still runs (the CLI may kill it alone). */
const LAUNCHER_POLL_MS = 1_000;
/** As `bridge.js hook` reads stdin. */
const BODY_LIMIT = 4 * 1024 * 1024;

/** One event as the launcher hands it over. */
export interface HostedEvent {
  app: string;
  input: string;
  /** `--wait`'s seconds as the launcher had them (digits only), or undefined. */
  waitS: number | undefined;
  /** The launcher's process, as a hook would see itself. */
  at: HookProcess;
  signal: AbortSignal;
}

export interface HookHostOptions {
  /** The bridge home this host serves (its socket is in it). */
  home: string;
  /** The bridge.js this host runs: a launcher naming another one runs its own. */
  bridgeFile: string;
  /** Runs one event; resolves to what the hook prints (empty: nothing). */
  runEvent(e: HostedEvent): Promise<string>;
  /** Whether a launcher's environment is one this host serves (the same bridge home). */
  servesEnv(env: NodeJS.ProcessEnv): boolean;
  idleMs?: number;
  log?: (line: string) => void;
}

export interface HookHost {
  socket: string;
  /** Resolves when the host has stopped serving (idle, displaced, updated, or `close`). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** A file's identity and content stamp: a replaced or rewritten bridge.js differs. */
function stampOf(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** The folder, made ours and private, or false when it is not ours to use. */
function privateFolder(dir: string): boolean {
  if (typeof process.getuid !== 'function') return false;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    if (!st.isDirectory() || st.uid !== process.getuid()) return false;
    if ((st.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
    return true;
  } catch {
    return false;
  }
}

/** Whether a host already answers on `socket`. */
export function hostAnswers(socket: string, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ socketPath: socket, path: '/status', method: 'GET', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => { req.destroy(); resolve(false); });
    req.on('error', () => resolve(false));
    req.end();
  });
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => { size += c.length; if (size <= BODY_LIMIT) chunks.push(c); });
    req.on('end', () => resolve(size <= BODY_LIMIT ? Buffer.concat(chunks).toString('utf8') : undefined));
    req.on('error', () => resolve(undefined));
  });
}

const plain = (res: ServerResponse, status: number, text: string) => {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
};

/**
 * Serves hook events on `<home>/hook-host/hooks.sock` until idle or displaced; undefined when it
 * cannot here (not Linux, a folder not ours, a path too long) or another host already serves.
 */
export async function serveHooks(o: HookHostOptions): Promise<HookHost | undefined> {
  const socket = hookHostSocket(o.home);
  if (!hookHostFits(socket) || !privateFolder(path.dirname(socket))) return undefined;
  if (await hostAnswers(socket)) return undefined;
  const log = o.log ?? (() => undefined);
  const bridgeStamp = stampOf(o.bridgeFile);
  let served = 0;
  let inFlight = 0;
  let stopping = false;
  const server: Server = createServer((req, res) => { void handle(req, res); });
  // A permission's reply may take most of Claude Code's 600 s: no clock of the server's ends it.
  server.requestTimeout = 0;
  fs.rmSync(socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => { server.off('error', reject); resolve(); });
  });
  const ino = fs.statSync(socket).ino;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => { resolveClosed = r; });
  let idle: NodeJS.Timeout | undefined;
  const idleMs = o.idleMs ?? HOOK_HOST_IDLE_MS;
  const armIdle = () => { clearTimeout(idle); if (inFlight === 0) idle = setTimeout(() => void close('idle'), idleMs); };
  const ownSocket = () => { try { return fs.statSync(socket).ino === ino; } catch { return false; } };
  const check = setInterval(() => {
    if (!ownSocket()) void close('its socket is no longer its own');
    else if (stampOf(o.bridgeFile) !== bridgeStamp) void close('its bridge.js changed');
  }, CHECK_MS);

  async function close(why: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    log(`hook host: stopping (${why})`);
    clearInterval(check);
    clearTimeout(idle);
    // No new event; those running finish (their launchers wait for them).
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (ownSocket()) fs.rmSync(socket, { force: true });
    resolveClosed();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://hooks');
    if (req.method === 'GET' && url.pathname === '/status') {
      plain(res, 200, JSON.stringify({ pid: process.pid, served, bridge: o.bridgeFile }));
      return;
    }
    const m = /^\/hook\/([a-z0-9-]{1,40})$/.exec(url.pathname);
    if (req.method !== 'POST' || !m) { plain(res, 404, 'no such route'); return; }
    // Refused before anything is done: the launcher then runs `bridge.js hook` itself.
    if (stopping) { plain(res, 503, 'the hook host is stopping'); return; }
    if (req.headers['x-bridge'] !== o.bridgeFile) { plain(res, 409, 'this host runs another bridge.js'); return; }
    if (stampOf(o.bridgeFile) !== bridgeStamp) { plain(res, 409, 'bridge.js changed'); void close('its bridge.js changed'); return; }
    const pid = Number(req.headers['x-hook-pid']);
    const at = hookProcessOf(pid);
    if (!at) { plain(res, 400, 'x-hook-pid names no process of this user'); return; }
    if (!o.servesEnv(at.env)) { plain(res, 409, 'the launcher\'s bridge home is another one'); return; }
    const wait = url.searchParams.get('wait');
    inFlight++;
    clearTimeout(idle);
    const stop = new AbortController();
    // The launcher killed (the CLI's hook timeout), or its curl gone: stop waiting, as the hook would on its signal.
    res.on('close', () => { if (!res.writableFinished) stop.abort(); });
    const watch = setInterval(() => { if (processGone(pid)) stop.abort(); }, LAUNCHER_POLL_MS);
    try {
      const input = await readBody(req);
      if (input === undefined) { plain(res, 413, 'the event is larger than 4 MB'); return; }
      served++;
      const out = await o.runEvent({ app: m[1]!, input, waitS: wait !== null && /^\d+$/.test(wait) ? Number(wait) : undefined, at, signal: stop.signal });
      if (!res.destroyed) plain(res, 200, out ? `${out}\n` : '');
    } catch (err) {
      log(`hook host: ${(err as Error).message}`);
      // Handled, though it failed: 200 with nothing, so the launcher does not run the event twice.
      if (!res.destroyed && !res.headersSent) plain(res, 200, '');
    } finally {
      clearInterval(watch);
      inFlight--;
      armIdle();
    }
  }

  armIdle();
  return { socket, closed, close: () => close('asked to') };
}
