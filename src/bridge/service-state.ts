// service.json, what the person's local service (src/sandbox/local-service.ts) says of itself in
// its home: its address, process, ask key and owner key. The service writes it; the editor's
// launcher reads it (instead of scraping printed text). Read only while its process lives.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_SERVICE_FILES } from './service-files';
import { processGone, removeIfUnchanged } from './process-alive';

export interface ServiceState {
  version: 1;
  url: string;
  pid: number;
  askKey: string;
  /** Allows sign-ins (src/sandbox/auth/editor-approval-routes.ts): the editor sends it after the person's dialog. */
  ownerKey: string;
  machineFile: string;
  home: string;
  startedAt: string;
}

/** service.json of a live service, or undefined (none, unreadable, or naming a dead process: then removed). */
export function readServiceState(home: string, isGone: (pid: number) => boolean = processGone): ServiceState | undefined {
  const file = join(home, LOCAL_SERVICE_FILES.state);
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch { return undefined; }
  try {
    const s = JSON.parse(text) as Partial<ServiceState>;
    if (s.version !== 1 || typeof s.url !== 'string' || typeof s.pid !== 'number' || typeof s.askKey !== 'string' || typeof s.ownerKey !== 'string' || typeof s.machineFile !== 'string') return undefined;
    if (isGone(s.pid)) { removeIfUnchanged(file, text); return undefined; }
    return s as ServiceState;
  } catch {
    return undefined;
  }
}

/** Why the last start failed (start-failed.json), when no service runs: the Cards view says it. */
export function lastStartFailure(home: string): string | undefined {
  if (readServiceState(home)) return undefined;
  try {
    const f = JSON.parse(readFileSync(join(home, LOCAL_SERVICE_FILES.failed), 'utf8')) as { message?: unknown };
    return typeof f.message === 'string' ? f.message : undefined;
  } catch {
    return undefined;
  }
}
