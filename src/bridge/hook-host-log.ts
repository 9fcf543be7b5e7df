// The hook host's log (hook-host.ts): what `bridge.js hook` writes on the CLI's stderr, the host
// keeps in `<home>/hook-host/host.log`, started again once it passes 256 KB. Every line is made
// terminal-safe first, as a hook's stderr is (#52 F12).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HOOK_HOST_DIR } from './hook-host';
import { terminalSafe } from './terminal-safe';

const LOG_FILE = 'host.log';
const LOG_LIMIT = 256 * 1024;

/** A writer of the host's log in `home`; a line that cannot be written is dropped. */
export function hostLog(home: string): (line: string) => void {
  const file = path.join(home, HOOK_HOST_DIR, LOG_FILE);
  return (line) => {
    try {
      const size = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
      const text = `${new Date().toISOString()} ${terminalSafe(line)}\n`;
      if (size > LOG_LIMIT) fs.writeFileSync(file, text, { mode: 0o600 });
      else fs.appendFileSync(file, text, { mode: 0o600 });
    } catch {
      // The log is for the curious; the event goes on.
    }
  };
}
