// GET /_ask/proof?nonce=N: the service proves it holds the ask key before an assistant sends it
// anything (#51 F1; the bridge's side and why: src/bridge/service-proof.ts). Open to anyone: the
// answer is a MAC of the caller's own nonce and says nothing about the key.
import type { FastifyInstance } from 'fastify';
import { PROOF_PATH, proofOf } from '../bridge/service-proof';

export function registerServiceProof(app: FastifyInstance, askKey: string): void {
  app.get<{ Querystring: { nonce?: string } }>(PROOF_PATH, async (req, reply) => {
    const nonce = req.query.nonce;
    if (typeof nonce !== 'string' || !/^[A-Za-z0-9_-]{22,128}$/.test(nonce)) {
      return reply.code(400).send({ code: 'invalid', detail: 'nonce: 22 to 128 base64url characters' });
    }
    return { proof: proofOf(askKey, nonce) };
  });
}
