// DPoP proof checks (RFC 9449 section 4.3 and DESIGN's windows): typ, ES256 only, a public jwk,
// signature, jti never seen in the window, htm, htu, iat within 60 s, ath, nonce.
import { createHash } from 'node:crypto';
import { importPublic, publicJwkProblem, type PublicP256 } from './jwk';
import { parseJws, verifyEs256 } from './jws';
import type { NonceBook } from './nonces';

export const IAT_WINDOW_S = 60;
/** DESIGN: a jti seen in the last 5 minutes is refused. */
export const JTI_WINDOW_MS = 5 * 60_000;

export type DpopFailure = 'invalid_dpop_proof' | 'use_dpop_nonce';

export class DpopError extends Error {
  constructor(
    readonly error: DpopFailure,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }
}

export interface ProofCheck {
  htm: string;
  /** `{base_url}` + path, no query or fragment. */
  htu: string;
  /** When given, the proof must carry `ath` for it (resource requests). */
  accessToken?: string;
  /** Precomputed base64url SHA-256 of the access token, to skip hashing. */
  ath?: string;
  /** 'required': a missing nonce is refused too (token endpoint); 'if-present': only a stale one. */
  nonce: 'required' | 'if-present';
  /** Whose nonces the proof must carry (they differ when the sandbox splits them). */
  issuer: 'token' | 'resource';
}

export interface CheckedProof {
  jkt: string;
  jwk: PublicP256;
}

export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Strips query and fragment, as htu is compared without them (RFC 9449 4.3 step 9). */
function bareUri(uri: string): string {
  const q = uri.search(/[?#]/);
  return q === -1 ? uri : uri.slice(0, q);
}

export class DpopVerifier {
  /** jti -> when it may be forgotten. Insertion order is roughly time order, so sweeps stop early. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly nonces: (issuer: ProofCheck['issuer']) => NonceBook,
  ) {}

  reset(): void {
    this.seen.clear();
  }

  /** Checks one DPoP header value; throws DpopError. The jti is recorded only when all passes. */
  check(proof: string | string[] | undefined, want: ProofCheck): CheckedProof {
    if (proof === undefined || proof === '') throw new DpopError('invalid_dpop_proof', 'DPoP proof header missing');
    if (Array.isArray(proof)) throw new DpopError('invalid_dpop_proof', 'exactly one DPoP header is allowed');
    const jws = parseJws(proof);
    if (typeof jws === 'string') throw new DpopError('invalid_dpop_proof', `DPoP proof: ${jws}`);
    const { header, payload } = jws;
    if (header.typ !== 'dpop+jwt') throw new DpopError('invalid_dpop_proof', 'DPoP proof typ must be dpop+jwt');
    if (header.alg !== 'ES256') throw new DpopError('invalid_dpop_proof', 'DPoP proof alg must be ES256');
    const jwkProblem = publicJwkProblem(header.jwk);
    if (jwkProblem) throw new DpopError('invalid_dpop_proof', `DPoP proof ${jwkProblem}`);
    let key;
    try {
      key = importPublic(header.jwk as PublicP256);
    } catch {
      throw new DpopError('invalid_dpop_proof', 'DPoP proof jwk is not a valid P-256 point');
    }
    if (!verifyEs256(jws, key.key)) throw new DpopError('invalid_dpop_proof', 'DPoP proof signature does not verify');

    const { jti, htm, htu, iat, ath, nonce } = payload;
    if (typeof jti !== 'string' || jti.length < 8 || jti.length > 256) {
      throw new DpopError('invalid_dpop_proof', 'DPoP proof jti must be a random string (8 to 256 characters)');
    }
    if (htm !== want.htm) throw new DpopError('invalid_dpop_proof', `DPoP proof htm must be ${want.htm}`);
    if (typeof htu !== 'string' || bareUri(htu) !== want.htu) {
      throw new DpopError('invalid_dpop_proof', `DPoP proof htu must be ${want.htu}`);
    }
    const nowMs = this.now();
    if (typeof iat !== 'number' || !Number.isFinite(iat)) {
      throw new DpopError('invalid_dpop_proof', 'DPoP proof iat must be a number of seconds');
    }
    if (Math.abs(iat - nowMs / 1000) > IAT_WINDOW_S) {
      throw new DpopError('invalid_dpop_proof', `DPoP proof iat is more than ${IAT_WINDOW_S} s from the server's clock`);
    }
    if (want.accessToken !== undefined || want.ath !== undefined) {
      const expected = want.ath ?? accessTokenHash(want.accessToken!);
      if (typeof ath !== 'string') throw new DpopError('invalid_dpop_proof', 'DPoP proof ath (access token hash) missing');
      if (ath !== expected) throw new DpopError('invalid_dpop_proof', 'DPoP proof ath does not match the access token');
    }
    if (nonce === undefined) {
      if (want.nonce === 'required') throw new DpopError('use_dpop_nonce', 'a DPoP nonce is required: use the DPoP-Nonce header');
    } else if (typeof nonce !== 'string' || !this.nonces(want.issuer).isGood(nonce)) {
      throw new DpopError('use_dpop_nonce', 'the DPoP nonce is old or unknown: use the latest DPoP-Nonce');
    }

    this.sweep(nowMs);
    const jtiKey = `${key.jkt}:${jti}`;
    const until = this.seen.get(jtiKey);
    if (until !== undefined && until > nowMs) throw new DpopError('invalid_dpop_proof', 'DPoP proof jti was already used');
    // A proof is refused for its iat anyway once iat + 60 s has passed, so remembering the jti that
    // long (never more than the 5 minutes of DESIGN) refuses exactly the same replays with less memory.
    this.seen.set(jtiKey, Math.min(nowMs + JTI_WINDOW_MS, Math.max(nowMs, iat * 1000) + IAT_WINDOW_S * 1000 + 1000));
    return { jkt: key.jkt, jwk: key.jwk };
  }

  private sweep(nowMs: number): void {
    for (const [jti, until] of this.seen) {
      if (until > nowMs) break;
      this.seen.delete(jti);
    }
  }
}
