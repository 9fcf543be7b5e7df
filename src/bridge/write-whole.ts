// Files another process reads while this one may be writing them (an identity file the extension
// reads as the sandbox starts, local-service.json the hooks read on every call): written to a
// temporary file beside them and renamed over them, so a reader sees the old text or the new,
// never half of it. A plain write truncates first: a reader in between saw an empty or cut file
// ("not set up" in a window starting beside the sandbox, #36).
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';

const tempOf = (file: string): string => `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}.tmp`;

/** The file a link points at (a link is kept, its target written), or `file` itself. */
function targetOf(file: string): string {
  try { return fs.realpathSync(file); } catch { return file; }
}

/** Writes `content` to `file` whole (readable by its owner only with the default mode). */
export function writeWholeSync(link: string, content: string | Buffer, mode = 0o600): void {
  const file = targetOf(link);
  const tmp = tempOf(file);
  try {
    fs.writeFileSync(tmp, content, { mode });
    fs.chmodSync(tmp, mode); // the umask may have taken bits off
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** `writeWholeSync`, without blocking the thread. */
export async function writeWhole(link: string, content: string | Buffer, mode = 0o600): Promise<void> {
  const file = targetOf(link);
  const tmp = tempOf(file);
  try {
    await fsp.writeFile(tmp, content, { mode });
    await fsp.chmod(tmp, mode);
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
}
