// The sandbox's sign-in side: computers, apps, OAuth (device code, authorization code, refresh),
// DPoP checks and grants. server.ts builds one AuthService, calls register(app) and asks
// authenticate(req, scope) on every /v1 route.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Scope } from '../../api/schemas';
import type { Grant, SandboxContext } from '../context';

export interface MachineRecord {
  id: string;
  name: string;
  publicJwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string };
}

export class AuthService {
  readonly machines = new Map<string, MachineRecord>();

  constructor(readonly ctx: SandboxContext) {}

  /** Registers /oauth/*, the approval page, GET /v1/me and the auth parts of /_sandbox/. */
  register(_app: FastifyInstance): void {
    // filled in below
  }

  /**
   * Checks Authorization (DPoP or Bearer) and the DPoP proof of a /v1 request.
   * Throws OAuthRefusal (401/403) or ProblemError('app_not_available').
   */
  async authenticate(_req: FastifyRequest, _scope: Scope | 'any'): Promise<Grant> {
    throw new Error('not yet');
  }

  /** The nonce to send in `DPoP-Nonce` on every answer. */
  currentNonce(): string {
    return '';
  }

  /** Back to the starting state: the built-in app only, no computers, no sign-ins. */
  reset(): void {
    this.machines.clear();
  }

  /** Live sign-ins (not revoked, not expired). */
  grants(): Grant[] {
    return [];
  }
}
