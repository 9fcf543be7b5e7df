// Where the sandbox may write a computer's identity file (POST /_sandbox/machines `writeTo`, and
// the --demo seed): the run's own folder (--work), the file it was started with (--machine-file),
// or the default identity path; never over a file that is not an identity file, and never over
// an identity no sandbox made (no `madeBy: "sandbox"` mark: a real service's, even one reached
// through a loopback tunnel).
import { lstatSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { defaultMachineFile, MADE_BY_SANDBOX, readIdentity, writeIdentity } from './machine-file';

export interface IdentityPlaces {
  /** The run's own folder: any file inside it may be written. */
  workDir?: string;
  /** The identity file the sandbox was started with (--machine-file). */
  machineFile?: string;
}

/** A sandbox's own identity file: marked by the sandbox that wrote it (not told by its address). */
export function isSandboxMade(identity: { madeBy?: string }): boolean {
  return identity.madeBy === MADE_BY_SANDBOX;
}

/**
 * The identity files this run wrote, so that when it stops their address goes with it: a dead
 * sandbox's port must not be where the next start sends its attestation and tokens (whoever binds
 * that port later would get them).
 */
export class WrittenIdentities {
  private readonly files = new Map<string, { id: string; baseUrl: string }>();

  note(file: string, id: string, baseUrl: string): void {
    this.files.set(resolve(file), { id, baseUrl });
  }

  /** Blanks the baseUrl of each file still holding what this run wrote there (same id, same address). */
  forgetAddresses(): void {
    for (const [file, wrote] of this.files) {
      const now = readIdentity(file);
      if (now && isSandboxMade(now) && now.id === wrote.id && now.baseUrl === wrote.baseUrl) {
        try {
          writeIdentity(file, { ...now, baseUrl: '' });
        } catch {
          // gone or unwritable: nothing of ours to blank
        }
      }
    }
    this.files.clear();
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
  if (!isSandboxMade(existing)) return 'holds an identity no sandbox made (another service\'s); it is left alone';
  return undefined;
}
