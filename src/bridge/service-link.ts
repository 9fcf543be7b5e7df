// How an assistant reaches the local service: local-service.json in the bridge's home (written by
// a sandbox started with --announce) names its address and the ask key. Plain fetch with short
// bounds: a hook must never hold its CLI up because the service is gone or hung.
import { readFileSync } from 'node:fs';
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

/** A plain call's bound: the service is local, so a second is plenty (the issue: answer within a second). */
export const CALL_TIMEOUT_MS = 800;

export class ServiceLink {
  constructor(readonly info: ServiceInfo) {}

  async call<T>(method: string, route: string, body?: unknown, o: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<T> {
    const bound = AbortSignal.timeout(o.timeoutMs ?? CALL_TIMEOUT_MS);
    const signal = o.signal ? AbortSignal.any([bound, o.signal]) : bound;
    let res: Response;
    try {
      res = await fetch(`${this.info.url}${route}`, {
        method,
        headers: { authorization: `Bearer ${this.info.askKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (e) {
      throw new ServiceError(`cannot reach the local service at ${this.info.url} (${(e as Error).message}); is it running?`, 0);
    }
    const text = await res.text();
    if (!res.ok) throw new ServiceError(`${method} ${route} answered ${res.status}: ${text.slice(0, 300)}`, res.status);
    return (text ? JSON.parse(text) : {}) as T;
  }
}
