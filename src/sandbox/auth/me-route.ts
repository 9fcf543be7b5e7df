// GET /v1/me: the Me object of the spec for the calling sign-in, with an ETag.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Me } from '../../api/schemas';
import type { Grant, SandboxContext } from '../context';
import type { AuthCore } from './core';
import { answerRefusal } from './refusal';

/** The sandbox's one person, as /v1/me names them (decisions.md "The person's name on /v1/me"). */
export const SANDBOX_PERSON = { name: 'Sandbox Person', email: 'person@sandbox.test' } as const;

export function meOf(grant: Grant, app: { id: string; name: string; verified: boolean }): Me {
  return {
    user: { id: grant.userId, ...SANDBOX_PERSON },
    workspace: { id: grant.workspaceId },
    app,
    grant: {
      id: grant.id,
      scopes: grant.scopes,
      reach: grant.reach,
      ...(grant.machine ? { machine: { id: grant.machine.id, name: grant.machine.name } } : {}),
      dpop: grant.jkt !== undefined,
      createdAt: new Date(grant.createdAt).toISOString(),
      expiresAt: new Date(grant.expiresAt).toISOString(),
    },
  };
}

/** What /v1/me needs of the sign-in side (index.ts's AuthService has it; declared here so the two do not import each other). */
export interface MeRouteAuth {
  readonly ctx: Pick<SandboxContext, 'baseUrl'>;
  readonly core: Pick<AuthCore, 'store'>;
  meGuard?: (req: FastifyRequest, grant: Grant) => void;
  authenticate(req: FastifyRequest, scope: 'any'): Promise<Grant>;
  currentNonce(): string;
}

export function registerMeRoute(app: FastifyInstance, auth: MeRouteAuth): void {
  app.get('/v1/me', async (req, reply) => {
    let grant: Grant;
    try {
      grant = await auth.authenticate(req, 'any');
      auth.meGuard?.(req, grant);
    } catch (err) {
      reply.header('DPoP-Nonce', auth.currentNonce());
      return answerRefusal(reply, auth.ctx.baseUrl(req), err);
    }
    const appRec = auth.core.store.apps.get(grant.appId);
    const body = meOf(grant, {
      id: grant.appId,
      name: appRec?.name ?? grant.appName,
      verified: appRec ? appRec.verification === 'verified' : grant.appVerified,
    });
    const json = JSON.stringify(body);
    const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
    reply.header('DPoP-Nonce', auth.currentNonce()).header('ETag', etag).header('cache-control', 'private, no-cache');
    const inm = req.headers['if-none-match'];
    if (typeof inm === 'string' && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
    return reply.header('content-type', 'application/json; charset=utf-8').send(json);
  });
}
