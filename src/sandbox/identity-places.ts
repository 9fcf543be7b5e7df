// Where the sandbox may write a computer's identity file (POST /_sandbox/machines `writeTo`, and
// the --demo seed): the run's own folder (--work), the file it was started with (--machine-file),
// or the default identity path; never over a file that is not an identity file, and never over
// the identity of a real service (one whose baseUrl is not a loopback sandbox).
import { lstatSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { defaultMachineFile, readIdentity } from './machine-file';

export interface IdentityPlaces {
  /** The run's own folder: any file inside it may be written. */
  workDir?: string;
  /** The identity file the sandbox was started with (--machine-file). */
  machineFile?: string;
}

/** A base URL a sandbox on this computer would have: http on a loopback address. */
export function isLoopbackBaseUrl(baseUrl: string): boolean {
  try {
    const u = new URL(baseUrl);
    return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}

function inside(dir: string, file: string): boolean {
  const rel = relative(resolve(dir), file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Why `path` may not receive an identity file, or undefined when it may. */
export function identityTargetRefusal(path: string, places: IdentityPlaces): string | undefined {
  if (!isAbsolute(path)) return 'must be an absolute path';
  const file = resolve(path);
  const allowed = file === resolve(defaultMachineFile())
    || (places.machineFile !== undefined && file === resolve(places.machineFile))
    || (places.workDir !== undefined && inside(places.workDir, file));
  if (!allowed) return 'must be the default identity file, the --machine-file the sandbox was started with, or inside its --work folder';
  return existingFileRefusal(file);
}

/** An existing file may be replaced only when it is a sandbox's own identity file. */
export function existingFileRefusal(file: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(file);
  } catch {
    return undefined; // nothing there yet
  }
  if (!stat.isFile()) return 'is there and is not a plain file';
  const existing = readIdentity(file);
  if (!existing) return 'is there and is not an identity file';
  if (!isLoopbackBaseUrl(existing.baseUrl)) return 'holds the identity of another service; it is left alone';
  return undefined;
}
