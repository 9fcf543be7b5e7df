// The sign-in parts of the sandbox's control surface (/_sandbox/...): computers, apps and their
// registration rules, testers, secrets, domain proof and review, and the person's device decision.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProblemCode } from '../../api/schemas';
import { sendProblem } from '../problems';
import {
  appView, buildApp, MAX_AWAITING, proofInstructions, proofLine, testersProblem, type AppRecord, type FieldError,
} from './apps';
import { approveDevice, denyDevice } from './consent';
import type { AuthCore } from './core';
import { newSecret, sha256b64url } from './ids';
import { makeMachine, writeIdentityFile } from './machines';
import { identityTargetRefusal } from '../identity-places';

type Body = Record<string, unknown>;

function bodyOf(req: FastifyRequest): Body {
  const b = req.body;
  return typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Body) : {};
}

export function registerControlRoutes(app: FastifyInstance, core: AuthCore): void {
  const problem = (req: FastifyRequest, reply: FastifyReply, code: ProblemCode, detail: string, errors?: FieldError[]) =>
    sendProblem(reply, core.baseUrl(req), code, detail, errors ? { errors } : {});
  const findApp = (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): AppRecord | undefined => {
    const found = core.store.apps.get(req.params.id);
    if (!found) {
      void problem(req, reply, 'not_found', `no app ${req.params.id}`);
      return undefined;
    }
    return found;
  };

  app.post('/_sandbox/machines', async (req, reply) => {
    const { name, writeTo } = bodyOf(req);
    const errors: FieldError[] = [];
    if (typeof name !== 'string' || name.trim() === '' || name.length > 100) errors.push({ field: 'name', reason: 'required, 1 to 100 characters' });
    if (writeTo !== undefined && (typeof writeTo !== 'string' || writeTo === '')) errors.push({ field: 'writeTo', reason: 'a file path' });
    const place = typeof writeTo === 'string' && writeTo !== '' ? identityTargetRefusal(writeTo, core.ctx.identityPlaces) : undefined;
    if (place) errors.push({ field: 'writeTo', reason: place });
    if (errors.length > 0) return problem(req, reply, 'invalid', 'the computer cannot be set up', errors);
    const made = makeMachine((name as string).trim());
    if (typeof writeTo === 'string') {
      await writeIdentityFile(writeTo, made, core.baseUrl(req));
      core.ctx.identitiesWritten?.note(writeTo, made.record.id, core.baseUrl(req));
    }
    core.store.machines.set(made.record.id, made.record);
    return reply.code(201).send({ id: made.record.id, name: made.record.name, privateJwk: made.privateJwk, ...(writeTo ? { writeTo } : {}) });
  });

  app.get('/_sandbox/machines', async () => ({
    machines: [...core.store.machines.values()].map((m) => ({ id: m.id, name: m.name, publicJwk: m.publicJwk })),
  }));

  app.post('/_sandbox/apps', async (req, reply) => {
    const taken = new Set([...core.store.apps.values()].map((a) => a.clientId));
    const built = buildApp(bodyOf(req), { owner: core.ctx.person.userId, now: core.now(), takenClientIds: taken });
    if ('errors' in built) return problem(req, reply, 'invalid', 'the app cannot be registered', built.errors);
    core.store.apps.set(built.app.id, built.app);
    return reply.code(201).send({
      ...appView(built.app),
      ...(built.clientSecret ? { clientSecret: built.clientSecret } : {}),
      proof: proofInstructions(built.app),
    });
  });

  app.get('/_sandbox/apps', async () => ({ apps: [...core.store.apps.values()].map(appView) }));

  app.get<{ Params: { id: string } }>('/_sandbox/apps/:id', async (req, reply) => {
    const found = findApp(req, reply);
    return found ? { ...appView(found), proof: proofInstructions(found) } : reply;
  });

  // The person removes the app: its sign-ins answer app_not_available from then on.
  app.delete<{ Params: { id: string } }>('/_sandbox/apps/:id', async (req, reply) => {
    const found = findApp(req, reply);
    if (!found) return reply;
    found.removed = true;
    return appView(found);
  });

  app.put<{ Params: { id: string } }>('/_sandbox/apps/:id/testers', async (req, reply) => {
    const found = findApp(req, reply);
    if (!found) return reply;
    const errors: FieldError[] = [];
    const { testers } = bodyOf(req);
    if (testers === undefined) errors.push({ field: 'testers', reason: 'required: an array of person ids' });
    const list = testersProblem(testers, errors);
    if (errors.length > 0) return problem(req, reply, 'invalid', 'the testers cannot be set', errors);
    found.testers = [...list];
    return appView(found);
  });

  // Shown once, like the first: the old secret stops working at once.
  app.post<{ Params: { id: string } }>('/_sandbox/apps/:id/secret', async (req, reply) => {
    const found = findApp(req, reply);
    if (!found) return reply;
    if (!found.confidential) return problem(req, reply, 'invalid', 'only a website with a server has a client secret', [{ field: 'confidential', reason: 'the app is not confidential' }]);
    const secret = newSecret(32);
    found.secretHash = sha256b64url(secret);
    return { id: found.id, clientId: found.clientId, clientSecret: secret };
  });

  // Simulated domain proof: the line the owner put in DNS TXT or the well-known file.
  app.post<{ Params: { id: string } }>('/_sandbox/apps/:id/proof', async (req, reply) => {
    const found = findApp(req, reply);
    if (!found) return reply;
    const { method, line } = bodyOf(req);
    const errors: FieldError[] = [];
    if (!found.domain) errors.push({ field: 'domain', reason: 'the app has no domain to prove' });
    if (method !== 'dns' && method !== 'file') errors.push({ field: 'method', reason: 'dns or file' });
    if (typeof line !== 'string') errors.push({ field: 'line', reason: 'required: the line found in the TXT record or the file' });
    else if (line.trim() !== proofLine(found)) errors.push({ field: 'line', reason: 'does not carry the app-verification token the owner was shown' });
    if (errors.length > 0) return problem(req, reply, 'invalid', 'the domain proof failed', errors);
    found.domainProven = true;
    return { ...appView(found), proof: { ...proofInstructions(found), method } };
  });

  // The owner asks for review: at most 5 apps of an owner may await verification at once.
  app.post<{ Params: { id: string } }>('/_sandbox/apps/:id/verification', async (req, reply) => {
    const found = findApp(req, reply);
    if (!found) return reply;
    if (found.verification !== 'unverified') return problem(req, reply, 'conflict', `the app is already ${found.verification}`);
    if (!found.domainProven) return problem(req, reply, 'invalid', 'prove the domain first', [{ field: 'domain', reason: 'no DNS TXT or well-known file proof yet' }]);
    const awaiting = [...core.store.apps.values()].filter((a) => a.owner === found.owner && a.verification === 'awaiting' && !a.removed).length;
    if (awaiting >= MAX_AWAITING) return problem(req, reply, 'conflict', `at most ${MAX_AWAITING} apps may await verification at once`);
    found.verification = 'awaiting';
    return appView(found);
  });

  // The service's review decides.
  app.post<{ Params: { id: string } }>('/_sandbox/apps/:id/review', async (req, reply) => {
    const found = findApp(req, reply);
    if (!found) return reply;
    const { approved } = bodyOf(req);
    if (typeof approved !== 'boolean') return problem(req, reply, 'invalid', 'approved is required', [{ field: 'approved', reason: 'must be a boolean' }]);
    if (found.verification !== 'awaiting') return problem(req, reply, 'conflict', 'the app is not awaiting verification');
    found.verification = approved ? 'verified' : 'unverified';
    for (const g of core.store.grants.values()) if (g.appId === found.id) g.appVerified = approved;
    return appView(found);
  });

  app.post('/_sandbox/device/approve', async (req, reply) => {
    const { user_code: userCode, scopes, as } = bodyOf(req);
    if (typeof userCode !== 'string') return problem(req, reply, 'invalid', 'user_code is required', [{ field: 'user_code', reason: 'required' }]);
    if (as !== undefined && (typeof as !== 'string' || !/^usr_[A-Za-z0-9-]+$/.test(as))) {
      return problem(req, reply, 'invalid', 'as must be a person id', [{ field: 'as', reason: 'a person id usr_...' }]);
    }
    const result = approveDevice(core, userCode, scopes, typeof as === 'string' ? as : core.ctx.person.userId);
    if (!result.ok) return problem(req, reply, result.code, result.detail, result.field ? [{ field: result.field, reason: result.detail }] : undefined);
    return { user_code: result.device.userCode, status: 'approved', scopes: result.device.approvedScopes, machine: result.device.machine };
  });

  app.post('/_sandbox/device/deny', async (req, reply) => {
    const { user_code: userCode } = bodyOf(req);
    if (typeof userCode !== 'string') return problem(req, reply, 'invalid', 'user_code is required', [{ field: 'user_code', reason: 'required' }]);
    const result = denyDevice(core, userCode);
    if (!result.ok) return problem(req, reply, result.code, result.detail);
    return { user_code: result.device.userCode, status: 'denied' };
  });

  // DPoP nonces: `shared` (one book for /oauth/token and /v1, the default) or `split` (each
  // server its own, as RFC 9449 section 9 allows): a client must keep them apart.
  const dpopView = () => ({ id: 'dpop', nonces: core.splitNonces ? 'split' : 'shared' });
  app.get('/_sandbox/dpop', async () => dpopView());
  app.post('/_sandbox/dpop', async (req, reply) => {
    const { nonces } = bodyOf(req);
    if (nonces !== 'shared' && nonces !== 'split') return problem(req, reply, 'invalid', 'nonces must be shared or split', [{ field: 'nonces', reason: 'shared or split' }]);
    core.splitNonces = nonces === 'split';
    return dpopView();
  });

  app.get('/_sandbox/grants', async () => ({
    grants: [...core.store.grants.values()].map((g) => ({ ...g, createdAt: new Date(g.createdAt).toISOString(), expiresAt: new Date(g.expiresAt).toISOString() })),
  }));
}
