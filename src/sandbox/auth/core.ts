// What every part of the sign-in side shares: the sandbox context, the store and the DPoP checks.
import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import { DpopVerifier } from './dpop';
import { NonceBook } from './nonces';
import type { SandboxStore } from '../store/store';
import { AuthStore } from './store';

/** Who asks for a nonce: the authorization server (/oauth/token) or the resource server (/v1). */
export type NonceIssuer = 'token' | 'resource';

export class AuthCore {
  readonly store: AuthStore;
  /** The resource server's nonces, and the token endpoint's too unless `splitNonces`. */
  readonly nonces: NonceBook;
  /** The token endpoint's own nonces while `splitNonces` (POST /_sandbox/dpop {nonces: "split"}). */
  private readonly tokenNonces: NonceBook;
  /** RFC 9449 section 9 lets the two servers issue different nonces; off by default. */
  splitNonces = false;
  readonly dpop: DpopVerifier;
  /** Attestation jti -> until when it is remembered (its exp). */
  readonly attestationJtis = new Map<string, number>();

  constructor(readonly ctx: SandboxContext, store?: SandboxStore) {
    const now = () => ctx.clock.now();
    this.store = new AuthStore(now, ctx.person, store);
    this.nonces = new NonceBook(now);
    this.tokenNonces = new NonceBook(now);
    this.dpop = new DpopVerifier(now, (issuer) => this.nonceBook(issuer));
  }

  nonceBook(issuer: NonceIssuer): NonceBook {
    return issuer === 'token' && this.splitNonces ? this.tokenNonces : this.nonces;
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
    this.tokenNonces.reset();
    this.splitNonces = false;
    this.dpop.reset();
    this.attestationJtis.clear();
  }
}
