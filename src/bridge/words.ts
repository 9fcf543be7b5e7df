// The words the bridge writes on a CLI's cards (titles, "Tool:", "In:", the tool input's labels),
// in the person's language (#54 item 4). The hook runs outside VS Code, so it cannot ask for the
// display language: the extension writes its translations of these messages into the bridge home
// (`words.json`, src/editor/connect/bridge-words-file.ts) at each Connect and at activation where
// a hook is installed; the bridge reads that file once per process. No file, an unreadable one, or
// a translation whose placeholders differ from the English ({0} dropped would drop the command
// from the card): the English message. What goes back to the CLI's model (a decline's message)
// stays English: the model reads it, not the person.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bridgeHome } from './home';
import { BRIDGE_WORDS, WORDS_FILE } from './words-list';

export { BRIDGE_WORDS, WORDS_FILE } from './words-list';

export type BridgeWord = keyof typeof BRIDGE_WORDS;

/** The placeholders of a message, sorted: a translation must keep exactly these. */
const placeholders = (m: string) => (m.match(/\{\d+\}/g) ?? []).sort().join(',');

/** The translations worth using from a table: strings, keyed by one of our messages, with the same placeholders. */
export function usableWords(table: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const words = (table as { words?: unknown } | undefined)?.words;
  if (!words || typeof words !== 'object') return out;
  for (const english of Object.values(BRIDGE_WORDS) as string[]) {
    const t = (words as Record<string, unknown>)[english];
    if (typeof t === 'string' && t.trim() !== '' && placeholders(t) === placeholders(english)) out[english] = t;
  }
  return out;
}

let loaded: Record<string, string> | undefined;

/** Reads the bridge home's words file (once per process); English when it is absent or unreadable. */
function translations(): Record<string, string> {
  if (loaded) return loaded;
  try {
    loaded = usableWords(JSON.parse(fs.readFileSync(path.join(bridgeHome(), WORDS_FILE), 'utf8')));
  } catch {
    loaded = {};
  }
  return loaded;
}

/** Tests: these translations instead of the file's (undefined: read the file again next time). */
export function useWords(table: Record<string, string> | undefined): void {
  loaded = table === undefined ? undefined : usableWords({ words: table });
}

/** The message `key` in the person's language, its placeholders filled. */
export function say(key: BridgeWord, ...args: (string | number)[]): string {
  const english: string = BRIDGE_WORDS[key];
  const message = translations()[english] ?? english;
  return message.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : m));
}
