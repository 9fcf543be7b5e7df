// Computers set up through the control surface: a P-256 key pair whose private half goes to the
// caller (and, with writeTo, into the identity file of DESIGN); the service keeps the public half.
import { generateKeyPairSync } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { identityText } from '../machine-file';
import { newId } from './ids';
import { writeWhole } from '../../bridge/write-whole';
import type { MachineRecord } from './store';

export interface NewMachine {
  record: MachineRecord;
  privateJwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string; d: string };
}

export function makeMachine(name: string): NewMachine {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  const privateJwk = { kty: 'EC' as const, crv: 'P-256' as const, x: jwk.x!, y: jwk.y!, d: jwk.d! };
  return { record: { id: newId('mch'), name, publicJwk: { kty: 'EC', crv: 'P-256', x: privateJwk.x, y: privateJwk.y } }, privateJwk };
}

/** Writes `{id, name, baseUrl, privateJwk, madeBy: "sandbox", sandbox: {pid, host}}` readable by its owner only. */
export async function writeIdentityFile(path: string, m: NewMachine, baseUrl: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeWhole(path, identityText({ id: m.record.id, name: m.record.name, baseUrl, privateJwk: m.privateJwk })); // read by a window meanwhile
}
