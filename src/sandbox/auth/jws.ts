// Compact ES256 JWS parsing and checking with node:crypto directly (no per-call key import):
// DPoP proofs arrive on every request, so this stays cheap.
import { verify, type KeyObject } from 'node:crypto';

export interface ParsedJws {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Splits and decodes a compact JWS; a string saying why when it is not one. */
export function parseJws(token: string): ParsedJws | string {
  if (token.length > 8192) return 'too long';
  const parts = token.split('.');
  if (parts.length !== 3) return 'not a compact JWS (three dot-separated parts)';
  const [h, p, s] = parts as [string, string, string];
  const header = decodeJson(h);
  if (!header) return 'header is not base64url JSON';
  const payload = decodeJson(p);
  if (!payload) return 'payload is not base64url JSON';
  const signature = Buffer.from(s, 'base64url');
  return { header, payload, signingInput: `${h}.${p}`, signature };
}

/** ES256 signature check (raw r||s, 64 bytes, as JWS uses). */
export function verifyEs256(jws: ParsedJws, key: KeyObject): boolean {
  if (jws.signature.length !== 64) return false;
  try {
    return verify('sha256', Buffer.from(jws.signingInput), { key, dsaEncoding: 'ieee-p1363' }, jws.signature);
  } catch {
    return false;
  }
}
