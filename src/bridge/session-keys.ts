// A session's own key between one hook process and the next: Claude Code and Codex run the hook
// once per event, and only the session's key (given at its first registration, #52 F9) may ask,
// wait or withdraw in it. One file per session in the bridge's home, readable by this user only,
// named by a hash of the service's ask key, the app and the session id: a new sandbox (a new ask
// key) never meets an old key; the local service keeps its ask key and its sessions across starts,
// so a session's key still works after a restart. The names say nothing of the session.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { SessionKeys } from './asker';
import { sha256Hex } from './sha256';
import { writeWholeSync } from './write-whole';

export const SESSIONS_DIR = 'sessions';

/** A file of the session's in `dir`, named so that it says nothing of the session (`.key`: its key). */
export function sessionFile(dir: string, askKey: string, app: string, appSessionId: string, ext: string): string {
  return path.join(dir, `${sha256Hex(`${askKey}\n${app}\n${appSessionId}`).slice(0, 32)}${ext}`);
}

export function keysInFolder(dir: string, askKey: string, app: string): SessionKeys {
  const file = (appSessionId: string) => sessionFile(dir, askKey, app, appSessionId, '.key');
  return {
    get(appSessionId) {
      try { return readFileSync(file(appSessionId), 'utf8').trim() || undefined; } catch { return undefined; }
    },
    set(appSessionId, key) {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        writeWholeSync(file(appSessionId), key, 0o600);
      } catch { /* not kept: the next event registers anew and is refused only if the session lives on */ }
    },
    delete(appSessionId) {
      rmSync(file(appSessionId), { force: true });
    },
  };
}
