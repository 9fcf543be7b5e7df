// Public P-256 keys from JWKs, cached by their coordinates: DPoP checks run on every request,
// and importing a key costs far more than a map look-up.
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';

export interface PublicP256 {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export interface CachedKey {
  key: KeyObject;
  /** RFC 7638 thumbprint. */
  jkt: string;
  jwk: PublicP256;
}

const B64URL_32 = /^[A-Za-z0-9_-]{43}$/;
const MAX_CACHED = 10_000;
const cache = new Map<string, CachedKey>();

/** RFC 7638 thumbprint of a P-256 public key: members in lexical order, no spaces. */
export function thumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  return createHash('sha256')
    .update(`{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}","y":"${jwk.y}"}`)
    .digest('base64url');
}

/** Reason it is not a public P-256 JWK, or undefined when it is. */
export function publicJwkProblem(jwk: unknown): string | undefined {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return 'jwk must be a JSON object';
  const k = jwk as Record<string, unknown>;
  if (k.kty !== 'EC' || k.crv !== 'P-256') return 'jwk must be an EC P-256 key';
  if ('d' in k) return 'jwk must not hold the private key';
  if (typeof k.x !== 'string' || typeof k.y !== 'string' || !B64URL_32.test(k.x) || !B64URL_32.test(k.y)) {
    return 'jwk x and y must be 32-byte base64url values';
  }
  return undefined;
}

/** The imported key for a checked public JWK; throws when the point is not on the curve. */
export function importPublic(jwk: PublicP256): CachedKey {
  const id = `${jwk.x}.${jwk.y}`;
  const hit = cache.get(id);
  if (hit) return hit;
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
  const entry: CachedKey = { key, jkt: thumbprint(jwk), jwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } };
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(id, entry);
  return entry;
}
