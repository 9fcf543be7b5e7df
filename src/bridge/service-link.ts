// How an assistant reaches the local service: local-service.json in the bridge's home (written by
// a sandbox started with --announce) names its address and the ask key. Plain fetch with short
// bounds: a hook must never hold its CLI up because the service is gone or hung.
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import { bridgeHome, SERVICE_FILE } from './home';

export interface ServiceInfo { url: string; askKey: string; pid?: number }

/** What a running local service announced, or undefined (none running, or an unreadable file). */
export function readServiceFile(file = path.join(bridgeHome(), SERVICE_FILE)): ServiceInfo | undefined {
  try {
    const j = JSON.parse(readFileSync(file, 'utf8')) as Partial<ServiceInfo>;
    if (typeof j.url !== 'string' || !/^https?:\/\//.test(j.url) || typeof j.askKey !== 'string' || !j.askKey) return undefined;
    return { url: j.url.replace(/\/+$/, ''), askKey: j.askKey, ...(typeof j.pid === 'number' ? { pid: j.pid } : {}) };
  } catch {
    return undefined;
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
  constructor(readonly info: ServiceInfo) {
    this.agent = new (info.url.startsWith('https:') ? https.Agent : http.Agent)({ keepAlive: true, maxSockets: 1 });
  }

  /** `key`: the bearer (a session's own key); the run's ask key when none is given. */
  async call<T>(method: string, route: string, body?: unknown, o: { timeoutMs?: number; signal?: AbortSignal; key?: string } = {}): Promise<T> {
    const bound = AbortSignal.timeout(o.timeoutMs ?? CALL_TIMEOUT_MS);
    const signal = o.signal ? AbortSignal.any([bound, o.signal]) : bound;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const url = new URL(`${this.info.url}${route}`);
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = (url.protocol === 'https:' ? https : http).request(url, {
        method, agent: this.agent, signal,
        headers: {
          authorization: `Bearer ${o.key ?? this.info.askKey}`,
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
    if (status < 200 || status >= 300) throw new ServiceError(`${method} ${route} answered ${status}: ${text.slice(0, 300)}`, status);
    return (text ? JSON.parse(text) : {}) as T;
  }
}
