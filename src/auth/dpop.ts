// The app's P-256 key (kept as a JWK in the secret store), its RFC 7638 thumbprint, and DPoP
// proofs (RFC 9449): a fresh signed JWT per request.
import { createHash, randomUUID } from 'node:crypto';
import { jose } from './jose';
import type { JWK } from './jose';
import type { SecretStore } from './secret-store';

export interface ProofInput {
  htm: string;
  /** The request address; query and fragment are removed here. */
  url: string;
  accessToken?: string;
  nonce?: string;
  /** Seconds since the epoch. */
  iat: number;
}

/** `htu`: scheme, host, port and path only. */
export function htuOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

/** `ath`: base64url SHA-256 of the access token. */
export function athOf(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest('base64url');
}

export class DpopKey {
  private constructor(
    private readonly privateKey: CryptoKey,
    readonly publicJwk: JWK,
    readonly thumbprint: string,
  ) {}

  static async fromPrivateJwk(jwk: JWK): Promise<DpopKey> {
    const { importJWK, calculateJwkThumbprint } = await jose();
    const privateKey = (await importJWK(jwk, 'ES256')) as CryptoKey;
    const publicJwk: JWK = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
    return new DpopKey(privateKey, publicJwk, await calculateJwkThumbprint(publicJwk, 'sha256'));
  }

  static async generate(): Promise<{ key: DpopKey; privateJwk: JWK }> {
    const { generateKeyPair, exportJWK } = await jose();
    const pair = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = await exportJWK(pair.privateKey);
    return { key: await DpopKey.fromPrivateJwk(privateJwk), privateJwk };
  }

  /**
   * The stored key under `secretKey` (one per service and computer, see sign-in-slot.ts), or a
   * new one written to the store first (so every window uses the same key).
   * With a lock shared by the windows, two windows starting at once cannot make two keys.
   */
  static async loadOrCreate(store: SecretStore, secretKey: string, lock?: { acquire(): Promise<() => Promise<void>> }): Promise<DpopKey> {
    if (lock) {
      const release = await lock.acquire();
      try {
        return await DpopKey.loadOrCreate(store, secretKey);
      } finally {
        await release();
      }
    }
    const stored = await store.get(secretKey);
    if (stored) {
      try {
        return await DpopKey.fromPrivateJwk(JSON.parse(stored) as JWK);
      } catch {
        // A damaged key cannot sign anything the service accepts: make a new one (sign-in again).
      }
    }
    const { key, privateJwk } = await DpopKey.generate();
    await store.store(secretKey, JSON.stringify(privateJwk));
    return key;
  }

  async proof(input: ProofInput): Promise<string> {
    const claims: Record<string, unknown> = {
      jti: randomUUID(),
      htm: input.htm.toUpperCase(),
      htu: htuOf(input.url),
      iat: input.iat,
    };
    if (input.accessToken !== undefined) claims.ath = athOf(input.accessToken);
    if (input.nonce !== undefined) claims.nonce = input.nonce;
    const { SignJWT } = await jose();
    return new SignJWT(claims)
      .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: this.publicJwk })
      .sign(this.privateKey);
  }
}
