// The sandbox's sign-in side: computers, apps, OAuth (device code, authorization code, refresh),
// DPoP checks and grants. server.ts builds one AuthService, calls register(app) and asks
// authenticate(req, scope) on every /v1 route.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Scope } from '../../api/schemas';
import type { Grant, SandboxContext } from '../context';
import { registerOpenApi } from '../openapi';
import { ProblemError } from '../problems';
import { registerApprovalRoutes } from './approval-routes';
import { registerAuthorizeRoutes } from './authorize-routes';
import { registerControlRoutes } from './control-routes';
import { AuthCore } from './core';
import { registerDeviceRoute } from './device-route';
import { registerEditorApprovalRoutes } from './editor-approval-routes';
import { DpopError } from './dpop';
import { addFormParser } from './forms';
import { registerMeRoute } from './me-route';
import { refusal } from './refusal';

export { answerRefusal } from './refusal';
import type { SandboxStore } from '../store/store';
import type { Table } from '../store/table';
import { GRANT_LIFE_MS, type DeviceRecord, type GrantRecord, type MachineRecord } from './store';
import { registerTokenRoute } from './token-route';

export type { MachineRecord } from './store';
export { BUILT_IN_CLIENT_ID } from './apps';

export class AuthService {
  readonly core: AuthCore;
  /** Computers set up through POST /_sandbox/machines, by id. */
  readonly machines: Table<MachineRecord>;
  /**
   * Run by GET /v1/me after sign-in passed, before the answer: server.ts sets it to count the
   * route's limit classes (read, workspace). It may throw ProblemError (e.g. rate_limited).
   */
  meGuard?: (req: FastifyRequest, grant: Grant) => void;

  constructor(readonly ctx: SandboxContext, store?: SandboxStore) {
    this.core = new AuthCore(ctx, store);
    this.machines = this.core.store.machines;
  }

  /**
   * Registers /oauth/*, GET /v1/me, GET /v1/openapi.json and how the person allows a sign-in: in
   * the sandbox the approval page and the auth parts of /_sandbox/; in the local service
   * (`control: false`) only the editor's approval, with the owner key (editor-approval-routes.ts).
   */
  register(app: FastifyInstance, how: { control: true } | { control: false; ownerKey: string; signedIn?: (device: DeviceRecord) => void } = { control: true }): void {
    // Encapsulated so the form parser the OAuth endpoints need does not touch other routes.
    void app.register(async (scope) => {
      addFormParser(scope);
      registerDeviceRoute(scope, this.core);
      registerTokenRoute(scope, this.core);
      if (how.control) {
        // A website's consent page is another form any local process can post: not on the local service.
        registerAuthorizeRoutes(scope, this.core);
        registerApprovalRoutes(scope, this.core);
        registerControlRoutes(scope, this.core);
      } else {
        registerEditorApprovalRoutes(scope, this.core, how.ownerKey, how.signedIn);
      }
      registerMeRoute(scope, this);
      registerOpenApi(scope, (req) => this.ctx.baseUrl(req));
    });
  }

  /**
   * Checks Authorization (DPoP or Bearer) and the DPoP proof of a /v1 request.
   * Throws OAuthRefusal (401/403) or ProblemError('app_not_available').
   */
  async authenticate(req: FastifyRequest, scope: Scope | 'any'): Promise<Grant> {
    return this.authenticateNow(req, scope);
  }

  /** The same check without a promise, for hooks that want it synchronously. */
  authenticateNow(req: FastifyRequest, scope: Scope | 'any'): Grant {
    const { store, dpop } = this.core;
    const header = req.headers.authorization;
    if (!header) throw refusal('DPoP', 401, 'invalid_token', 'no access token: send Authorization: DPoP <token> with a DPoP proof');
    const space = header.indexOf(' ');
    const scheme = space === -1 ? header.toLowerCase() : header.slice(0, space).toLowerCase();
    const token = space === -1 ? '' : header.slice(space + 1).trim();
    if (scheme !== 'dpop' && scheme !== 'bearer') throw refusal('DPoP', 401, 'invalid_token', 'Authorization must be DPoP <token> (or Bearer for a website\'s token)');
    const wwwScheme = scheme === 'dpop' ? 'DPoP' : 'Bearer';
    const now = this.core.now();
    const access = store.access.get(token);
    if (!access) throw refusal(wwwScheme, 401, 'invalid_token', 'the access token is not known');
    if (access.expiresAt <= now) throw refusal(wwwScheme, 401, 'invalid_token', 'the access token expired: refresh it');
    const grant = store.grants.get(access.grantId);
    if (!grant || grant.revoked) throw refusal(wwwScheme, 401, 'invalid_token', 'the sign-in was revoked or replaced: sign in again');
    if (grant.expiresAt <= now) throw refusal(wwwScheme, 401, 'invalid_token', 'the sign-in expired: sign in again');
    if (grant.jkt !== undefined) {
      if (scheme !== 'dpop') throw refusal('DPoP', 401, 'invalid_token', 'this token is bound to a key: send it as Authorization: DPoP with a DPoP proof');
      let jkt: string;
      try {
        jkt = dpop.check(req.headers.dpop, { htm: req.method, htu: this.core.htu(req), ath: access.ath, nonce: 'required', issuer: 'resource' }).jkt;
      } catch (err) {
        if (err instanceof DpopError) throw refusal('DPoP', 401, err.error, err.description);
        throw err;
      }
      if (jkt !== grant.jkt) throw refusal('DPoP', 401, 'invalid_dpop_proof', 'the DPoP proof is not by the key the token is bound to');
    } else if (scheme !== 'bearer') {
      throw refusal('Bearer', 401, 'invalid_token', 'this is a bearer token: send it as Authorization: Bearer');
    }
    const app = store.apps.get(grant.appId);
    if (!app || app.removed) throw new ProblemError('app_not_available', 'the person removed this app; its sign-ins no longer work');
    if (scope !== 'any' && !hasScope(grant, scope)) {
      throw refusal(wwwScheme, 403, 'insufficient_scope', `this needs the scope ${scope}`, `, scope="${scope}"`);
    }
    if (grant.renews) grant.expiresAt = now + GRANT_LIFE_MS;
    return grant;
  }

  /** The nonce to send in `DPoP-Nonce` on every answer. */
  currentNonce(): string {
    return this.core.nonceBook('resource').latest();
  }

  /** Back to the starting state: the built-in app only, no computers, no sign-ins. */
  reset(): void {
    this.core.reset();
  }

  /** Live sign-ins (not revoked, not expired). */
  grants(): Grant[] {
    const now = this.core.now();
    return [...this.core.store.grants.values()].filter((g) => !g.revoked && g.expiresAt > now);
  }
}

/** cards:read:all covers cards:read: it sees the same cards and more. */
function hasScope(grant: GrantRecord, scope: Scope): boolean {
  return grant.scopes.includes(scope) || (scope === 'cards:read' && grant.scopes.includes('cards:read:all'));
}
