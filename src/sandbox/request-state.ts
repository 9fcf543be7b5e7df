// Per-request bookkeeping shared by the routes and server.ts's hooks: work to finish once the
// answer is about to leave (idempotency record, card lock), after any injected delay.
import type { FastifyRequest } from 'fastify';

const finishers = new WeakMap<FastifyRequest, ((status: number, body: unknown, contentType: string) => void)[]>();

export function onAnswerLeaving(req: FastifyRequest, fn: (status: number, body: unknown, contentType: string) => void): void {
  let list = finishers.get(req);
  if (!list) {
    list = [];
    finishers.set(req, list);
  }
  list.push(fn);
}

export function runFinishers(req: FastifyRequest, status: number, body: unknown, contentType: string): void {
  const list = finishers.get(req);
  if (!list) return;
  finishers.delete(req);
  for (const fn of list) fn(status, body, contentType);
}
