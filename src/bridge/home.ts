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

/** The person's local service's folder in the home (#51; its files: service-files.ts), 0700. */
export const LOCAL_SERVICE_DIR = 'service';

/** The person's local service's folder (#51). */
export function localServiceHome(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(bridgeHome(env), LOCAL_SERVICE_DIR);
}
