// How the person allows a device sign-in on the local service (#51 F2): in the editor, never on a
// page. The sandbox's /device page lets whoever can post a form to the loopback port allow a
// sign-in; here GET /device only tells the person where to decide, and the decision comes from the
// editor, which sends the owner key (kept in the service's 0700 home, readable by this user only)
// after the person answered a dialog naming the app and the computer asking.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { controlSecretMatches } from '../request-guard';
import { sendHtml } from '../html';
import { approveDevice, denyDevice, findPending } from './consent';
import type { AuthCore } from './core';
import { messagePage } from './page';
import type { DeviceRecord } from './store';

/** Where the editor reads a waiting sign-in and sends the person's decision. */
export const EDITOR_APPROVAL_PATH = '/_local/sign-ins';

function fail(reply: FastifyReply, status: number, code: string, detail: string) {
  return reply.code(status).send({ code, detail });
}

export function registerEditorApprovalRoutes(app: FastifyInstance, core: AuthCore, ownerKey: string, signedIn?: (device: DeviceRecord) => void): void {
  const owner = (req: FastifyRequest, reply: FastifyReply): boolean => {
    if (controlSecretMatches(req.headers.authorization, ownerKey)) return true;
    reply.header('WWW-Authenticate', 'Bearer realm="local-service-owner"');
    void fail(reply, 401, 'unauthorized', 'Sign-ins are allowed in the editor (Assistant Cards: Allow a Sign-In), which holds the owner key.');
    return false;
  };

  // The page the app links to: it says where to decide, and takes no decision.
  app.get<{ Querystring: { user_code?: string } }>('/device', async (req, reply) => {
    const code = typeof req.query.user_code === 'string' ? req.query.user_code : '';
    const body = messagePage(
      'Allow it in VS Code',
      `On this computer's local service, sign-ins are allowed in VS Code: run "Assistant Cards: Allow a Sign-In" and enter the code${code ? ` ${code}` : ' the app shows'}. VS Code then names the app and the computer asking.`,
    );
    return sendHtml(reply, 200, body);
  });

  app.get<{ Params: { code: string } }>(`${EDITOR_APPROVAL_PATH}/:code`, async (req, reply) => {
    if (!owner(req, reply)) return reply;
    const found = findPending(core, req.params.code);
    if (!found.ok) return fail(reply, found.code === 'not_found' ? 404 : 409, found.code, found.detail);
    const d = found.device;
    const appRec = core.store.apps.get(d.appId);
    if (!appRec || appRec.removed) return fail(reply, 403, 'forbidden', 'this app was removed');
    return {
      userCode: d.userCode,
      app: { name: appRec.name, publisher: appRec.publisher, verified: appRec.verification === 'verified' },
      machine: d.machine,
      scopes: d.scopes,
      expiresAt: new Date(d.expiresAt).toISOString(),
    };
  });

  app.post<{ Params: { code: string } }>(`${EDITOR_APPROVAL_PATH}/:code`, async (req, reply) => {
    if (!owner(req, reply)) return reply;
    const b = req.body as { allow?: unknown; scopes?: unknown } | undefined;
    if (typeof b !== 'object' || b === null || typeof b.allow !== 'boolean') return fail(reply, 400, 'invalid', 'send {"allow": true|false, "scopes"?: [...]}');
    if (!b.allow) {
      const denied = denyDevice(core, req.params.code);
      if (!denied.ok) return fail(reply, denied.code === 'not_found' ? 404 : 409, denied.code, denied.detail);
      return { userCode: denied.device.userCode, status: 'denied' };
    }
    const result = approveDevice(core, req.params.code, b.scopes, core.ctx.person.userId);
    if (!result.ok) {
      const status = result.code === 'not_found' ? 404 : result.code === 'conflict' ? 409 : result.code === 'forbidden' ? 403 : 400;
      return fail(reply, status, result.code, result.detail);
    }
    signedIn?.(result.device);
    return { userCode: result.device.userCode, status: 'approved', scopes: result.device.approvedScopes, machine: result.device.machine };
  });
}
