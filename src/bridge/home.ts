// Where the assistants' side of this computer lives: the folder the local service announces
// itself in (local-service.json), and where the extension keeps the hook command (bin/). One
// folder for every assistant CLI, so a hook set up once keeps working across sandbox restarts
// and extension updates. ASSISTANT_CARDS_HOME moves it (tests, and a person who wants it elsewhere).
import { homedir } from 'node:os';
import * as path from 'node:path';

export function bridgeHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (env.ASSISTANT_CARDS_HOME) return path.resolve(env.ASSISTANT_CARDS_HOME);
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'assistant-cards');
  return path.join(home, '.config', 'assistant-cards'); // beside DESIGN's machine.json
}

/** The file a running local service writes: its address and the key that lets assistants ask. */
export const SERVICE_FILE = 'local-service.json';
/** The hook command's folder inside the home (install.ts names the command in it). */
export const BIN_DIR = 'bin';

/**
 * The person's local service lives in this folder of the home (0700), one per person on this
 * computer (#51): src/sandbox/local-service.ts writes it, the editor's launcher reads it.
 */
export const LOCAL_SERVICE_DIR = 'service';
export const LOCAL_SERVICE_FILES = {
  /** Its address, process, ask key and owner key: the editor reads it (0600). */
  state: 'service.json',
  /** Held while a service starts or runs: a second start finds the running one. */
  lock: 'service.lock',
  /** This computer's identity for the local service (sandbox-made). */
  machine: 'machine.json',
  /** Where a detached service writes what it says. */
  log: 'service.log',
  /** Why the last start failed, for the window that started it. */
  failed: 'start-failed.json',
  /** One JSON line per sign-in the person allowed: every signed-in window announces it. */
  signIns: 'sign-ins.jsonl',
  /** The port the last run listened on: the next takes it again when free (a sign-in names the address). */
  port: 'port',
  /** Present while the person stopped the service: no window starts it again by itself. */
  stopped: 'stopped-by-person',
  /** The durable store (the `--store` file). */
  store: 'cards.db',
} as const;

export function localServiceHome(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(bridgeHome(env), LOCAL_SERVICE_DIR);
}
