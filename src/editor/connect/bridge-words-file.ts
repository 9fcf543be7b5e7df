// The bridge's words in this window's display language (#54 item 4): the hook runs outside VS Code
// and cannot ask for it, so the extension writes its translations of the bridge's messages
// (src/bridge/words.ts) into the bridge home, where each hook reads them. Written at each Connect
// and at activation where a hook is installed, only when they differ (one small file); with
// several windows, the last one started in another language decides (docs/decisions.md). No
// `vscode` here (its caller gives the language and bundle): loaded later, it shares no chunk with
// the activation bundle.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { BRIDGE_WORDS, WORDS_FILE } from '../../bridge/words-list';

/** The file's text: the display language and each message's translation (the English where the bundle has none). */
function bridgeWordsText(language: string, bundle: Record<string, string> | undefined): string {
  const words = Object.fromEntries((Object.values(BRIDGE_WORDS) as string[]).map((m) => [m, bundle?.[m] ?? m]));
  return `${JSON.stringify({ language, words }, null, 2)}\n`;
}

/** Writes the words file into `home` when its text differs; true when it wrote. */
export async function writeBridgeWords(home: string, language: string, bundle: Record<string, string> | undefined): Promise<boolean> {
  const file = path.join(home, WORDS_FILE);
  const text = bridgeWordsText(language, bundle);
  if (await fs.readFile(file, 'utf8').then((t) => t === text, () => false)) return false;
  await fs.mkdir(home, { recursive: true, mode: 0o700 });
  // Whole or not at all, as bridge/write-whole.ts writes (not imported: it would split a shared
  // chunk off the activation bundle for this file loaded later): a hook never reads half of it.
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.writeFile(tmp, text, { mode: 0o600 });
  await fs.rename(tmp, file).catch(async (e: unknown) => { await fs.rm(tmp, { force: true }); throw e; });
  return true;
}
