// Identifiers and secrets made by the sign-in side.
import { createHash, randomBytes } from 'node:crypto';

/** `prefix_` + 16 url-safe characters, e.g. `apg_Qk3...`. Matches `^<prefix>_[A-Za-z0-9-]+$`. */
export function newId(prefix: string): string {
  // base64url may hold `_`; the spec's id patterns allow letters, digits and `-` only.
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/_/g, '-')}`;
}

/** An unguessable opaque token (access, refresh, device code, authorization code, secret). */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256b64url(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ'; // RFC 8628 6.1: no vowels, no look-alikes

/** `ABCD-EFGH` style code the person types or sees on the approval page. */
export function newUserCode(): string {
  const bytes = randomBytes(8);
  let code = '';
  for (let i = 0; i < 8; i++) {
    code += USER_CODE_ALPHABET[bytes[i]! % USER_CODE_ALPHABET.length];
    if (i === 3) code += '-';
  }
  return code;
}

/** What the person typed, in the stored form: upper case, dash after four. */
export function normaliseUserCode(input: string): string {
  const bare = input.toUpperCase().replace(/[^A-Z]/g, '');
  return bare.length === 8 ? `${bare.slice(0, 4)}-${bare.slice(4)}` : bare;
}
