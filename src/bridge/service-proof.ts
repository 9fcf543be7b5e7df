// The local service proves it holds the ask key before an assistant sends it anything (#51 F1).
// A local-service.json can outlive its service, and whoever binds the freed port next would get
// the ask key and the card's whole content. The bridge sends a fresh nonce, no key, and goes on
// only when the answer is the nonce's HMAC under the ask key (the service side:
// src/sandbox/service-proof.ts).
import { nodeCrypto } from './node-crypto';

export const PROOF_PATH = '/_ask/proof';
/** Says what the MAC is of, so it can never be taken for any other use of the key. */
const PROOF_LABEL = 'assistant-cards local service proof v1\n';

export function proofOf(askKey: string, nonce: string): string {
  return nodeCrypto().createHmac('sha256', askKey).update(PROOF_LABEL + nonce).digest('base64url');
}

export function newNonce(): string {
  return nodeCrypto().randomBytes(24).toString('base64url');
}

/** Whether `answer` (the service's JSON text) proves the key for `nonce`. */
export function proofHolds(askKey: string, nonce: string, answer: string): boolean {
  let proof: unknown;
  try { proof = (JSON.parse(answer) as { proof?: unknown }).proof; } catch { return false; }
  if (typeof proof !== 'string') return false;
  const a = Buffer.from(proof);
  const b = Buffer.from(proofOf(askKey, nonce));
  return a.length === b.length && nodeCrypto().timingSafeEqual(a, b);
}
