// How an assistant reaches the local service: local-service.json in the bridge's home (written by
// the local service, or a sandbox started with --announce) names its address, the ask key and its
// process. Plain node:http with short bounds: a hook must never hold its CLI up because the service is
// gone or hung. Whom it talks to is checked first (#51 F1): a file naming a dead process is
// ignored (and removed), and the service proves it holds the ask key before anything is sent.
import { lstatSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import type * as Https from 'node:https';
import * as path from 'node:path';
import { bridgeHome, SERVICE_FILE } from './home';
import { processGone, removeIfUnchanged } from './process-alive';
import { newNonce, PROOF_PATH, proofHolds } from './service-proof';

/**
 * node:https (and node:tls under it) only for a service behind https: the local service is plain
 * http on its socket or loopback port, and loading them cost a hook a good part of its start
 * again (the hook is a new process per event: #53/#54, permissionToTreeP95Ms).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when used, see above
const https = (): typeof Https => require('node:https') as typeof Https;

export interface ServiceInfo {
  url: string;
  askKey: string;
  pid?: number;
  /** A Unix socket the service also serves on, in a folder only this user may enter (sandbox/ask-socket.ts). */
  socket?: string;
}

/**
 * What a running local service announced, or undefined: none running, an unreadable file, or one
 * that names no process or a dead one (then it is removed, unless it changed meanwhile).
 */
export function readServiceFile(file = path.join(bridgeHome(), SERVICE_FILE), isGone: (pid: number) => boolean = processGone): ServiceInfo | undefined {
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch { return undefined; }
  try {
    const j = JSON.parse(text) as Partial<ServiceInfo>;
    if (typeof j.url !== 'string' || !/^https?:\/\//.test(j.url) || typeof j.askKey !== 'string' || !j.askKey) return undefined;
    if (typeof j.pid !== 'number') return undefined;
    if (isGone(j.pid)) { removeIfUnchanged(file, text); return undefined; }
    const socket = typeof j.socket === 'string' && path.isAbsolute(j.socket) ? { socket: j.socket } : {};
    return { url: j.url.replace(/\/+$/, ''), askKey: j.askKey, pid: j.pid, ...socket };
  } catch {
    return undefined;
  }
}

/**
 * The socket is this user's own: it and its folder belong to this user and nobody else may enter
 * the folder, so nobody else can have made it or listen on it (#51 F1). Then its permissions are
 * the proof of whom the hook talks to. Anything else (Windows, a folder others may enter, a link)
 * and the hook uses the port, after the service's proof.
 */
export function socketIsPrivate(file: string): boolean {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return false;
  try {
    const uid = process.getuid();
    const dir = lstatSync(path.dirname(file));
    const sock = lstatSync(file);
    return dir.isDirectory() && dir.uid === uid && (dir.mode & 0o077) === 0 && sock.isSocket() && sock.uid === uid;
  } catch {
    return false;
  }
}

/** The service refused or could not be reached; `status` 0 means no answer at all. */
export class ServiceError extends Error {
  constructor(message: string, readonly status: number) { super(message); }
}

/**
 * A plain call's bound. A live local service answers in milliseconds and a stopped one refuses at
 * once; the bound is for one that hangs, and stays under Codex's 3 s for a SessionEnd hook. It
 * was 0.8 s: on a loaded machine a call took longer (a busy CI run).
 */
export const CALL_TIMEOUT_MS = 2_500;

/**
 * Making a card waits longer: given up on after the service made it, the card stays open with no
 * one waiting on its answer (the person answers into nothing). Under the other events' 10 s with
 * the registration before it.
 */
export const ASK_TIMEOUT_MS = 5_000;

/**
 * Plain node:http with one kept-alive connection: a hook is a new process per event, and Node's
 * fetch costs it tens of milliseconds to load before the first request (the card's way to the
 * tree is measured: `npm run bench`, permissionToTreeP95Ms).
 */
export class ServiceLink {
  private readonly agent: http.Agent;
  private proven: Promise<void> | undefined;
  /** The private socket this link talks over, when the service offers one (then no proof round). */
  readonly socketPath: string | undefined;
  constructor(readonly info: ServiceInfo, isGone: (pid: number) => boolean = processGone) {
    // The socket speaks plain HTTP with the service's own Host: for a service behind https (a
    // --public-url sandbox), the port and the proof.
    this.socketPath = info.socket !== undefined && info.url.startsWith('http:') && socketIsPrivate(info.socket) ? info.socket : undefined;
    const Agent = info.url.startsWith('https:') ? https().Agent : http.Agent;
    const pid = info.pid;
    // Each new connection first looks whether the announced process still runs: the port of a
    // dead one is anyone's (a kept-alive connection the service's death dropped is made again).
    this.agent = new (class extends Agent {
      override createConnection(...args: Parameters<http.Agent['createConnection']>): ReturnType<http.Agent['createConnection']> {
        if (pid !== undefined && isGone(pid)) {
          const err = new Error(`the local service (process ${pid}) has ended`);
          const done = args[1];
          if (typeof done === 'function') { done(err, undefined as never); return undefined as never; }
          throw err;
        }
        return super.createConnection(...args);
      }
    })({ keepAlive: true, maxSockets: 1 });
  }

  /**
   * The service proves it holds the ask key (service-proof.ts), once per link, before anything
   * else is sent; over the private socket, its folder's permissions already did.
   */
  private prove(signal: AbortSignal): Promise<void> {
    if (this.socketPath !== undefined) return Promise.resolve();
    this.proven ??= (async () => {
      const nonce = newNonce();
      const { status, text } = await this.send('GET', `${PROOF_PATH}?nonce=${nonce}`, undefined, signal, undefined);
      if (status !== 200 || !proofHolds(this.info.askKey, nonce, text)) {
        throw new ServiceError(`the program at ${this.info.url} is not the local service that announced itself (it did not prove its key); nothing was sent to it`, 0);
      }
    })();
    return this.proven;
  }

  private async send(method: string, route: string, payload: string | undefined, signal: AbortSignal, key: string | undefined): Promise<{ status: number; text: string }> {
    const url = new URL(`${this.info.url}${route}`);

    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = (url.protocol === 'https:' ? https() : http).request(url, {
        method, agent: this.agent, signal,
        ...(this.socketPath !== undefined ? { socketPath: this.socketPath } : {}),
        headers: {
          ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    }).catch((e: unknown) => {
      throw new ServiceError(`cannot reach the local service at ${this.info.url} (${(e as Error).message}); is it running?`, 0);
    });
  }

  /** `key`: the bearer (a session's own key); the run's ask key when none is given. */
  async call<T>(method: string, route: string, body?: unknown, o: { timeoutMs?: number; signal?: AbortSignal; key?: string } = {}): Promise<T> {
    const bound = AbortSignal.timeout(o.timeoutMs ?? CALL_TIMEOUT_MS);
    const signal = o.signal ? AbortSignal.any([bound, o.signal]) : bound;
    await this.prove(signal);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const { status, text } = await this.send(method, route, payload, signal, o.key ?? this.info.askKey);
    if (status < 200 || status >= 300) throw new ServiceError(`${method} ${route} answered ${status}: ${text.slice(0, 300)}`, status);
    return (text ? JSON.parse(text) : {}) as T;
  }
}
