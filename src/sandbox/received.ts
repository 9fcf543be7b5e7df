// The service requests the sandbox received (method and address with its query), newest last,
// for tests that must know a request was or was not made: GET /_sandbox/received. The asking
// surface's too (its keys travel in headers, never in the address). Bounded, so a
// long demo run keeps its memory. A notice address is a secret (whoever knows it can post notices)
// and control reads need no secret: `/in/<token>` is kept as `/in/…`. Not as the webhook's id
// either: GET /_sandbox/webhooks/{id} (a read) shows the address.
import type { FastifyRequest } from 'fastify';
import { FAULTABLE } from './faults';

export interface ReceivedRec { method: string; url: string; at: number }

/** The service's addresses and the asking surface (what a prompt costs the bridge is counted: bench, tests). */
const NOTED = [...FAULTABLE, '/_ask/'];

export class Received {
  private list: ReceivedRec[] = [];
  constructor(private readonly max = 1000) {}

  note(req: FastifyRequest, at: number): void {
    const path = req.url.split('?')[0] ?? req.url;
    if (!NOTED.some((p) => path.startsWith(p))) return; // service and asking addresses only, never the control surface
    this.list.push({ method: req.method, url: req.url.replace(/^\/in\/[^/?#]*/, '/in/…'), at });
    if (this.list.length > this.max) this.list.splice(0, this.list.length - this.max);
  }

  all(): readonly ReceivedRec[] {
    return this.list;
  }

  reset(): void {
    this.list = [];
  }
}
