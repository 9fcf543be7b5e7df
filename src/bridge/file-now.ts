// The file a Write would replace, as it is now on this computer, so its card can show the change
// (#54). Read only where the CLI's session works (its folder, after links): a model asking to
// write ~/.ssh/id_rsa must not have the bridge send that key's text to the service on a card; a
// file in the project the CLI reads without asking anyway. Bounded: a file past MAX_BYTES, or not
// UTF-8 text, is not compared (the card says why, and still shows the whole new content).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The largest file compared (bytes). */
export const MAX_BYTES = 512 * 1024;

export type FileNow =
  | { kind: 'new' }
  | { kind: 'text'; text: string }
  | { kind: 'not-compared'; why: 'outside' | 'large' | 'not-text' | 'not-a-file' | 'unreadable'; detail?: string };

/** Whether `inner` is `outer` or inside it. */
const within = (outer: string, inner: string) => {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** The file at `file` (relative to `cwd`), as the card may show it. */
export function fileNow(file: string, cwd: string | undefined): FileNow {
  if (cwd === undefined || !path.isAbsolute(cwd)) return { kind: 'not-compared', why: 'outside' };
  const full = path.resolve(cwd, file);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(full);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !danglingLink(full)) return { kind: 'new' };
    return { kind: 'not-compared', why: 'unreadable', detail: code ?? String(e) };
  }
  let real: string;
  let root: string;
  try {
    real = fs.realpathSync(full);
    root = fs.realpathSync(cwd);
  } catch (e) {
    return { kind: 'not-compared', why: 'unreadable', detail: (e as NodeJS.ErrnoException).code ?? String(e) };
  }
  if (!within(root, real)) return { kind: 'not-compared', why: 'outside' };
  if (!stat.isFile()) return { kind: 'not-compared', why: 'not-a-file' };
  if (stat.size > MAX_BYTES) return { kind: 'not-compared', why: 'large', detail: String(stat.size) };
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(real);
  } catch (e) {
    return { kind: 'not-compared', why: 'unreadable', detail: (e as NodeJS.ErrnoException).code ?? String(e) };
  }
  if (bytes.length > MAX_BYTES) return { kind: 'not-compared', why: 'large', detail: String(bytes.length) };
  if (bytes.includes(0)) return { kind: 'not-compared', why: 'not-text' };
  try {
    return { kind: 'text', text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { kind: 'not-compared', why: 'not-text' };
  }
}

/** A link whose target is missing: the write goes somewhere the card cannot say, so it is not "a new file". */
function danglingLink(full: string): boolean {
  try {
    return fs.lstatSync(full).isSymbolicLink();
  } catch {
    return false;
  }
}
