// The computer identity file of DESIGN ("The computer"): where it lives by default, and making or
// adopting one, so the sandbox knows the computer's public key.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { newId } from './ids';
import { writeWholeSync } from '../bridge/write-whole';

export interface PrivateJwk { kty: 'EC'; crv: 'P-256'; x: string; y: string; d: string }
/**
 * `madeBy: "sandbox"` marks a file a sandbox wrote: only such a file may be replaced by a sandbox.
 * A loopback baseUrl proves nothing (a real service can be reached through a loopback tunnel).
 */
export interface Identity { id: string; name: string; baseUrl: string; privateJwk: PrivateJwk; madeBy?: string }

export const MADE_BY_SANDBOX = 'sandbox';

/**
 * The process serving a sandbox-made file's address, written beside it (#37): a window using the
 * address stops calling it the moment this process is gone, however it ended (a SIGKILL blanks
 * nothing), before another program can take the freed port (src/editor/connection/sandbox-alive.ts).
 * `host` says on which computer the pid means something.
 */
export interface SandboxProcess { pid: number; host: string }

export function thisSandboxProcess(): SandboxProcess {
  return { pid: process.pid, host: hostname() };
}

/** The file's JSON: a live address carries the process serving it; a blank one carries none. */
export function identityText(identity: Identity): string {
  const { id, name, baseUrl, privateJwk } = identity;
  const body = { id, name, baseUrl, privateJwk, madeBy: MADE_BY_SANDBOX, ...(baseUrl ? { sandbox: thisSandboxProcess() } : {}) };
  return `${JSON.stringify(body, null, 2)}\n`;
}

export function defaultMachineFile(): string {
  if (process.platform === 'win32') {
    return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'assistant-cards', 'machine.json');
  }
  return join(homedir(), '.config', 'assistant-cards', 'machine.json');
}

export function newIdentity(name: string, baseUrl: string): Identity {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as unknown as PrivateJwk;
  return { id: newId('mch'), name, baseUrl, privateJwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d }, madeBy: MADE_BY_SANDBOX };
}

/** An existing identity file, or undefined when missing or not one. */
export function readIdentity(path: string): Identity | undefined {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as Partial<Identity>;
    const k = v.privateJwk;
    if (typeof v.id !== 'string' || !/^mch_[A-Za-z0-9-]+$/.test(v.id) || typeof v.name !== 'string' || !k
      || k.kty !== 'EC' || k.crv !== 'P-256' || typeof k.x !== 'string' || typeof k.y !== 'string' || typeof k.d !== 'string') {
      return undefined;
    }
    return { id: v.id, name: v.name, baseUrl: String(v.baseUrl ?? ''), privateJwk: k, ...(typeof v.madeBy === 'string' ? { madeBy: v.madeBy } : {}) };
  } catch {
    return undefined;
  }
}

/** Writes a sandbox-made identity file (marked so), readable by its owner only. */
export function writeIdentity(path: string, identity: Identity): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeWholeSync(path, identityText(identity)); // a window may be reading it as the sandbox starts
}

export function publicOf(jwk: PrivateJwk): { kty: 'EC'; crv: 'P-256'; x: string; y: string } {
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
}
