// A CLI's settings file as Connect and Disconnect read and write it (#52 F10): its bytes must be
// UTF-8 (anything else is refused and the file left as it is), a write goes through a temporary
// file and a rename into the file a link points at, and Disconnect plans on the text it reads
// right before writing, so a change made meanwhile (by the person, or by the CLI) is kept.
// Without `vscode`: tested in plain Node (test/bridge/settings-file.test.ts).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Plan, Refusal } from './settings-plan';
import { writeWhole } from './write-whole';

export type Read = { ok: true; text: string | undefined } | { ok: false; refusal: Refusal };

/** The file's text (undefined: it does not exist), or why it cannot be edited. */
export async function readSettings(file: string): Promise<Read> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, text: undefined };
    throw e;
  }
  return decodeSettings(bytes);
}

/** Writes through a temporary file and a rename, into the file a link points at, keeping its mode. */
export async function writeSettings(file: string, text: string): Promise<void> {
  const real = await fs.realpath(file).catch(() => file);
  await fs.mkdir(path.dirname(real), { recursive: true });
  const mode = await fs.stat(real).then((s) => s.mode & 0o777, () => 0o600);
  await writeWhole(real, text, mode);
}

/** How many times a file that keeps changing under us is read again before giving up. */
const TRIES = 3;

/**
 * Plans on the file's text and writes the result, reading the file again just before the write:
 * when it changed since it was planned on, the plan is made again on the new text. `between` runs
 * after each plan (tests change the file there). A refusal writes nothing.
 */
export async function rewriteSettings(file: string, plan: (text: string | undefined) => Plan, between?: () => Promise<void>): Promise<Plan> {
  let read = await readSettings(file);
  for (let i = 0; i < TRIES; i++) {
    if (!read.ok) return read;
    const planned = plan(read.text);
    if (!planned.ok) return planned;
    await between?.();
    const again = await readSettings(file);
    if (again.ok && again.text === read.text) {
      if (planned.changed && planned.remove) await fs.rm(file, { force: true });
      else if (planned.changed) await writeSettings(file, planned.after);
      return planned;
    }
    read = again;
  }
  return { ok: false, refusal: { kind: 'unexpected', detail: `the file changed each time it was read (${TRIES} times); try again when nothing else writes it` } };
}

/**
 * A settings file's bytes as text, or a refusal when they are not UTF-8 (a lenient decoding would
 * turn them into U+FFFD, and writing that back would lose them). A byte order mark is kept.
 */
export function decodeSettings(bytes: Uint8Array): { ok: true; text: string } | { ok: false; refusal: Refusal } {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    const at = firstBadByte(bytes);
    return { ok: false, refusal: { kind: 'encoding', detail: `bytes that are not UTF-8 near offset ${at}` } };
  }
}

/** Where decoding first fails (for the message), fed one byte at a time. */
function firstBadByte(bytes: Uint8Array): number {
  const dec = new TextDecoder('utf-8', { fatal: true });
  for (let i = 0; i < bytes.length; i++) {
    try { dec.decode(bytes.subarray(i, i + 1), { stream: true }); } catch { return i; }
  }
  return bytes.length;
}
