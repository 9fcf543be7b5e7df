// GET /oauth/authorize shows the consent page for a web, desktop or single-page app (PKCE S256
// only, redirect address matched exactly, loopback on any port); POST /oauth/authorize takes the
// person's decision and redirects back with code, state and iss (RFC 9207).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Scope } from '../../api/schemas';
import { mayUse, redirectMatches, type AppRecord } from './apps';
import type { AuthCore } from './core';
import { field, fieldAll, formOf } from './forms';
import { newId, newSecret } from './ids';
import { sendHtml } from '../html';
import { consentPage, messagePage } from './page';
import { askedScopes } from './scopes';
import { AUTH_CODE_MS, AUTH_REQUEST_MS, type AuthRequestRecord } from './store';

const ALWAYS: Scope[] = ['cards:read:all'];
const B64URL_43 = /^[A-Za-z0-9_-]{43}$/;
const html = (reply: FastifyReply, status: number, body: string) => sendHtml(reply, status, body);

function redirectBack(reply: FastifyReply, redirectUri: string, params: Record<string, string | undefined>): FastifyReply {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return reply.code(303).header('location', url.toString()).header('cache-control', 'no-store').send();
}

export function registerAuthorizeRoutes(app: FastifyInstance, core: AuthCore): void {
  app.get<{ Querystring: Record<string, string | string[] | undefined> }>('/oauth/authorize', async (req, reply) => {
    const base = core.baseUrl(req);
    const q = req.query;
    const one = (name: string): string | undefined => {
      const v = q[name];
      return Array.isArray(v) ? undefined : v;
    };
    const repeated = Object.entries(q).find(([, v]) => Array.isArray(v));
    const clientId = one('client_id');
    const appRec: AppRecord | undefined = clientId ? core.store.appByClientId(clientId) : undefined;
    // Until client and redirect address are known good, errors are shown here, never redirected.
    if (!appRec) return html(reply, 400, messagePage('Unknown app', `No app is registered with client_id ${clientId ?? '(none)'}.`, 'error'));
    if (appRec.removed) return html(reply, 403, messagePage('App not available', 'The person removed this app.', 'error'));
    const redirectUri = one('redirect_uri');
    if (!redirectUri || !redirectMatches(appRec, redirectUri)) {
      return html(reply, 400, messagePage('Redirect address not registered', 'redirect_uri must be one of the app\'s registered addresses, exactly.', 'error'));
    }
    const state = one('state');
    const back = (error: string, description: string) => redirectBack(reply, redirectUri, { error, error_description: description, state, iss: base });
    if (repeated) return back('invalid_request', `${repeated[0]} is repeated`);
    if (one('response_type') !== 'code') return back('unsupported_response_type', 'response_type must be code');
    if (one('code_challenge_method') !== 'S256') return back('invalid_request', 'code_challenge_method must be S256 (the only method allowed)');
    const challenge = one('code_challenge');
    if (!challenge || !B64URL_43.test(challenge)) return back('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier');
    const resource = one('resource');
    if (resource !== `${base}/v1`) return back('invalid_target', `resource must be ${base}/v1`);
    const dpopJkt = one('dpop_jkt');
    if (dpopJkt !== undefined && !B64URL_43.test(dpopJkt)) return back('invalid_request', 'dpop_jkt must be an RFC 7638 thumbprint');
    const asked = askedScopes(one('scope'), appRec);
    if (typeof asked === 'string') return back('invalid_scope', asked);
    if (!mayUse(appRec, core.ctx.person.userId)) {
      return back('access_denied', 'this app is not verified and works only for its owner and its testers');
    }
    const scopes = [...new Set<Scope>([...asked, ...ALWAYS.filter((s) => appRec.scopes.includes(s))])];
    const request: AuthRequestRecord = {
      id: newId('azr'),
      appId: appRec.id,
      redirectUri,
      ...(state !== undefined ? { state } : {}),
      scopes,
      codeChallenge: challenge,
      ...(dpopJkt !== undefined ? { dpopJkt } : {}),
      expiresAt: core.now() + AUTH_REQUEST_MS,
      done: false,
    };
    core.store.authRequests.set(request.id, request);
    return html(
      reply,
      200,
      consentPage({ app: appRec, scopes, fixed: ALWAYS, action: `${base}/oauth/authorize`, hidden: { request_id: request.id } }),
    );
  });

  app.post('/oauth/authorize', async (req, reply) => {
    const base = core.baseUrl(req);
    const form = formOf(req.body);
    const request = core.store.authRequests.get(field(form, 'request_id') ?? '');
    if (!request || request.done || request.expiresAt <= core.now()) {
      return html(reply, 400, messagePage('This sign-in is over', 'Start the sign-in again from the app.', 'error'));
    }
    request.done = true;
    const state = request.state;
    const action = field(form, 'action');
    if (action !== 'allow') {
      return redirectBack(reply, request.redirectUri, { error: 'access_denied', error_description: 'the person denied the sign-in', state, iss: base });
    }
    const ticked = fieldAll(form, 'scope');
    const scopes = request.scopes.filter((s) => ticked.includes(s) || ALWAYS.includes(s));
    const code = newSecret(32);
    core.store.codes.set(code, {
      code,
      appId: request.appId,
      redirectUri: request.redirectUri,
      scopes,
      codeChallenge: request.codeChallenge,
      ...(request.dpopJkt !== undefined ? { dpopJkt: request.dpopJkt } : {}),
      userId: core.ctx.person.userId,
      expiresAt: core.now() + AUTH_CODE_MS,
      used: false,
    });
    return redirectBack(reply, request.redirectUri, { code, state, iss: base });
  });
}
