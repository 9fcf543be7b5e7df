// The computer identity file of docs/spec/DESIGN.md and the machine attestation signed with its key.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { jose } from './jose';
import { MachineIdentity } from '../api/schemas';
import { NotSetUpError } from './errors';

/** `~/.config/assistant-cards/machine.json`, or `%APPDATA%\assistant-cards\machine.json` on Windows. */
export function defaultMachineFile(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string {
  if (platform === 'win32') {
    const appData = env.APPDATA ?? path.win32.join(home, 'AppData', 'Roaming');
    return path.win32.join(appData, 'assistant-cards', 'machine.json');
  }
  return path.posix.join(home, '.config', 'assistant-cards', 'machine.json');
}

/** Reads and checks the identity file; every failure is a NotSetUpError saying what to do. */
export async function readMachineIdentity(file: string): Promise<MachineIdentity> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new NotSetUpError('missing', file, 'no computer identity file');
    throw new NotSetUpError('unreadable', file, `the computer identity file cannot be read (${code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new NotSetUpError('invalid', file, 'the computer identity file is not JSON');
  }
  const parsed = MachineIdentity.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
    throw new NotSetUpError('invalid', file, `the computer identity file lacks or has wrong fields: ${fields}`);
  }
  return parsed.data;
}

/** `machine_attestation`: ES256 JWS, typ machine-attestation+jwt, kid = computer id, exp <= iat + 5 min. */
export async function createAttestation(
  identity: MachineIdentity,
  opts: { baseUrl: string; jkt: string; nowSeconds: number; file?: string },
): Promise<string> {
  const { importJWK, SignJWT } = await jose();
  let key: CryptoKey;
  try {
    key = (await importJWK({ ...identity.privateJwk }, 'ES256')) as CryptoKey;
  } catch {
    throw new NotSetUpError('invalid', opts.file ?? 'machine file', 'the computer key in the identity file is not a usable P-256 key');
  }
  return new SignJWT({ jkt: opts.jkt, jti: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', typ: 'machine-attestation+jwt', kid: identity.id })
    .setIssuer(identity.id)
    .setAudience(opts.baseUrl)
    .setIssuedAt(opts.nowSeconds)
    .setExpirationTime(opts.nowSeconds + 300)
    .sign(key);
}

/**
 * A warning when the identity file (it holds the computer's private key) can be read or written
 * by group or others on POSIX; undefined when it is private, on Windows, or when it cannot be
 * looked at (reading it reports that).
 */
export async function identityFileExposure(file: string, platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
  if (platform === 'win32') return undefined;
  let mode: number;
  try {
    mode = (await fs.stat(file)).mode;
  } catch {
    return undefined;
  }
  if ((mode & 0o077) === 0) return undefined;
  const octal = (mode & 0o777).toString(8).padStart(3, '0');
  return `The computer identity file ${file} can be read by other users (mode ${octal}); it holds this computer's private key. Run: chmod 600 "${file}"`;
}
