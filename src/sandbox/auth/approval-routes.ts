// The approval page at verification_uri: GET /device shows what the app asks, POST /device takes
// the person's Allow or Deny (with the scopes left ticked).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Scope } from '../../api/schemas';
import { approveDevice, denyDevice, findPending } from './consent';
import type { AuthCore } from './core';
import { field, fieldAll, formOf } from './forms';
import { sendHtml } from '../html';
import { codeEntryPage, consentPage, messagePage } from './page';

const html = (reply: FastifyReply, status: number, body: string) => sendHtml(reply, status, body, { formsTo: 'self' });

/**
 * The page's form posts back relative to where the page was loaded: an editor that opens the
 * sandbox's address through a port proxy (code-server's /proxy/<port>/) gets its answer there too.
 */
const DEVICE_ACTION = 'device';

export function registerApprovalRoutes(app: FastifyInstance, core: AuthCore): void {
  app.get<{ Querystring: { user_code?: string } }>('/device', async (req, reply) => {
    const userCode = typeof req.query.user_code === 'string' ? req.query.user_code : undefined;
    if (!userCode) return html(reply, 200, codeEntryPage(DEVICE_ACTION));
    const found = findPending(core, userCode);
    if (!found.ok) return html(reply, found.code === 'not_found' ? 404 : 409, codeEntryPage(DEVICE_ACTION, found.detail));
    const device = found.device;
    const appRec = core.store.apps.get(device.appId);
    if (!appRec || appRec.removed) return html(reply, 403, messagePage('App not available', 'The person removed this app.', 'error'));
    return html(
      reply,
      200,
      consentPage({
        app: appRec,
        machine: device.machine,
        scopes: device.scopes,
        fixed: [],
        action: DEVICE_ACTION,
        hidden: { user_code: device.userCode, form_token: device.formToken },
        userCode: device.userCode,
      }),
    );
  });

  app.post('/device', async (req, reply) => {
    const form = formOf(req.body);
    const userCode = field(form, 'user_code') ?? '';
    const action = field(form, 'action');
    const pending = findPending(core, userCode);
    if (pending.ok && field(form, 'form_token') !== pending.device.formToken) {
      // Not sent from the page shown to the person (another site posting the form).
      return html(reply, 403, messagePage('Open the sign-in page again', 'This answer did not come from the approval page. Open the link the app shows and decide there.', 'error'));
    }
    if (action === 'deny') {
      const result = denyDevice(core, userCode);
      if (!result.ok) return html(reply, result.code === 'not_found' ? 404 : 409, messagePage('Nothing to deny', result.detail, 'error'));
      return html(reply, 200, messagePage('Sign-in denied', 'The app was not allowed. You can close this page.'));
    }
    if (action !== 'allow') return html(reply, 400, messagePage('Choose Allow or Deny', 'The form was sent without a choice.', 'error'));
    const scopes = fieldAll(form, 'scope');
    if (scopes.length === 0) {
      return html(reply, 400, messagePage('Nothing allowed', 'Every scope was unticked. Go back and leave at least one ticked, or press Deny.', 'error'));
    }
    const result = approveDevice(core, userCode, scopes, core.ctx.person.userId);
    if (!result.ok) {
      const status = result.code === 'not_found' ? 404 : result.code === 'conflict' ? 409 : result.code === 'forbidden' ? 403 : 400;
      return html(reply, status, messagePage('The sign-in was not allowed', result.detail, 'error'));
    }
    const allowed = (result.device.approvedScopes ?? []) as Scope[];
    return html(
      reply,
      200,
      messagePage('Sign-in allowed', `The app on ${result.device.machine.name} may now: ${allowed.join(', ')}. You can close this page and go back to it.`),
    );
  });
}
