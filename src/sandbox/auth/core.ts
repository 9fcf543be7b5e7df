// What every part of the sign-in side shares: the sandbox context, the store and the DPoP checks.
import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import { DpopVerifier } from './dpop';
import { NonceBook } from './nonces';
import { AuthStore } from './store';

export class AuthCore {
  readonly store: AuthStore;
  readonly nonces: NonceBook;
  readonly dpop: DpopVerifier;
  /** Attestation jti -> until when it is remembered (its exp). */
  readonly attestationJtis = new Map<string, number>();

  constructor(readonly ctx: SandboxContext) {
    const now = () => ctx.clock.now();
    this.store = new AuthStore(now, ctx.person);
    this.nonces = new NonceBook(now);
    this.dpop = new DpopVerifier(now, this.nonces);
  }

  now(): number {
    return this.ctx.clock.now();
  }

  baseUrl(req: FastifyRequest): string {
    return this.ctx.baseUrl(req);
  }

  /** `{base_url}` + the request's path, as htu must name it. */
  htu(req: FastifyRequest): string {
    const url = req.url;
    const q = url.indexOf('?');
    return this.ctx.baseUrl(req) + (q === -1 ? url : url.slice(0, q));
  }

  reset(): void {
    this.store.reset();
    this.nonces.reset();
    this.dpop.reset();
    this.attestationJtis.clear();
  }
}
