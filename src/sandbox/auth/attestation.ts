// The computer attestation of DESIGN: compact JWS, ES256, typ machine-attestation+jwt, kid = the
// computer id; claims iss (computer id), aud ({base_url}), jkt, iat, exp (<= iat + 5 min), jti.
import { importPublic } from './jwk';
import { parseJws, verifyEs256 } from './jws';
import type { MachineRecord } from './store';

export const ATTESTATION_MAX_LIFE_S = 300;
const CLOCK_SKEW_S = 60;

/** The attested computer and key thumbprint, or a reason for 400 invalid_request. */
export function checkAttestation(
  token: string | undefined,
  opts: { machines: { get(id: string): MachineRecord | undefined }; baseUrl: string; nowMs: number; seenJtis: Map<string, number> },
): { machine: MachineRecord; jkt: string } | { reason: string } {
  if (!token) return { reason: 'machine_attestation is missing: this computer is not set up (no computer identity file)' };
  const jws = parseJws(token);
  if (typeof jws === 'string') return { reason: `machine_attestation is not a compact JWS: ${jws}` };
  const { header, payload } = jws;
  if (header.alg !== 'ES256') return { reason: 'machine_attestation alg must be ES256' };
  if (header.typ !== 'machine-attestation+jwt') return { reason: 'machine_attestation typ must be machine-attestation+jwt' };
  if (typeof header.kid !== 'string') return { reason: 'machine_attestation kid (the computer id) is missing' };
  const machine = opts.machines.get(header.kid);
  if (!machine) return { reason: `computer ${header.kid} is not known to the service: set this computer up again` };
  if (!verifyEs256(jws, importPublic(machine.publicJwk).key)) {
    return { reason: 'machine_attestation signature does not verify with the computer\'s key' };
  }
  const { iss, aud, jkt, iat, exp, jti } = payload;
  if (iss !== machine.id) return { reason: 'machine_attestation iss must be the computer id' };
  const audOk = aud === opts.baseUrl || (Array.isArray(aud) && aud.includes(opts.baseUrl));
  if (!audOk) return { reason: `machine_attestation aud must be ${opts.baseUrl}` };
  if (typeof jkt !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(jkt)) return { reason: 'machine_attestation jkt must be the RFC 7638 thumbprint of the DPoP key' };
  if (typeof iat !== 'number' || typeof exp !== 'number') return { reason: 'machine_attestation iat and exp must be numbers' };
  if (exp <= iat || exp - iat > ATTESTATION_MAX_LIFE_S) return { reason: 'machine_attestation exp must be after iat and at most 5 minutes after it' };
  const now = opts.nowMs / 1000;
  if (iat > now + CLOCK_SKEW_S) return { reason: 'machine_attestation iat is in the future' };
  if (exp <= now) return { reason: 'machine_attestation has expired' };
  if (typeof jti !== 'string' || jti.length < 8) return { reason: 'machine_attestation jti must be a random string' };
  const jtiKey = `${machine.id}:${jti}`;
  if ((opts.seenJtis.get(jtiKey) ?? 0) > opts.nowMs) return { reason: 'machine_attestation was already used (jti)' };
  for (const [k, until] of opts.seenJtis) if (until <= opts.nowMs) opts.seenJtis.delete(k);
  opts.seenJtis.set(jtiKey, exp * 1000);
  return { machine, jkt };
}
