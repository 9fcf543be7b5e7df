// Which limit classes a request counts against. Here so the client can pause a whole class after
// a 429 and the sync layer can budget its background share with the same mapping. The sandbox's
// route table says the same per route (a test checks they agree).
import type { LimitClass } from './constants';

export type { LimitClass };

/** The classes a request counts against. The token endpoint counts only per person. */
export function classesOf(method: string, path: string, waits: boolean): LimitClass[] {
  if (!path.startsWith('/v1/')) return ['person'];
  if (method === 'GET') return [waits ? 'wait' : 'read', 'person'];
  if (/\/(answer|messages)$/.test(path)) return ['write', 'answer', 'person'];
  return ['write', 'person'];
}
