// POST /oauth/token: device code (RFC 8628), authorization code with PKCE S256, refresh with
// rotation and reuse detection (RFC 9700 4.14). DPoP proofs need a nonce here (RFC 9449 8).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppRecord } from './apps';
import type { AuthCore } from './core';
import { DpopError, type CheckedProof } from './dpop';
import { field, formOf, oauthError, type Form } from './forms';
import { sha256b64url } from './ids';
import { SLOW_DOWN_STEP_S } from './store';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

class TokenError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

function fail(error: string, description: string, status = 400): never {
  throw new TokenError(status, error, description);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** client_id (and secret) from the form or HTTP Basic. */
function clientOf(core: AuthCore, req: FastifyRequest, form: Form): { app: AppRecord; secretGiven: string | undefined } {
  let clientId = field(form, 'client_id');
  let secret = field(form, 'client_secret');
  const basic = req.headers.authorization;
  if (basic?.startsWith('Basic ')) {
    const [id, pw] = Buffer.from(basic.slice(6), 'base64').toString('utf8').split(':');
    if (id !== undefined) clientId = decodeURIComponent(id);
    if (pw !== undefined) secret = decodeURIComponent(pw);
  }
  if (!clientId) fail('invalid_request', 'client_id is required');
  const app = core.store.appByClientId(clientId);
  if (!app) fail('invalid_client', `no app is registered with client_id ${clientId}`, 401);
  if (app.removed) fail('invalid_client', 'app_not_available: the person removed this app', 401);
  if (app.confidential) {
    if (!secret) fail('invalid_client', 'this app is confidential: send its client secret', 401);
    if (!app.secretHash || !sameSecret(sha256b64url(secret), app.secretHash)) fail('invalid_client', 'the client secret is wrong (a rotated secret stops at once)', 401);
  } else if (secret !== undefined) {
    fail('invalid_client', 'this app has no client secret', 401);
  }
  return { app, secretGiven: secret };
}

function proofOf(core: AuthCore, req: FastifyRequest): CheckedProof {
  return core.dpop.check(req.headers.dpop, { htm: 'POST', htu: core.htu(req), nonce: 'required', issuer: 'token' });
}

export function registerTokenRoute(app: FastifyInstance, core: AuthCore): void {
  app.post('/oauth/token', async (req, reply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache').header('DPoP-Nonce', core.nonceBook('token').latest());
    try {
      const form = formOf(req.body);
      const repeated = Object.entries(form).find(([, v]) => Array.isArray(v));
      if (repeated) fail('invalid_request', `${repeated[0]} is repeated`);
      const resource = field(form, 'resource');
      if (resource !== undefined && resource !== `${core.baseUrl(req)}/v1`) fail('invalid_target', `resource must be ${core.baseUrl(req)}/v1`);
      const grantType = field(form, 'grant_type');
      if (!grantType) fail('invalid_request', 'grant_type is required');
      if (grantType === DEVICE_GRANT) return deviceGrant(core, req, reply, form);
      if (grantType === 'refresh_token') return refreshGrant(core, req, reply, form);
      if (grantType === 'authorization_code') return codeGrant(core, req, reply, form);
      fail('unsupported_grant_type', `grant_type ${grantType} is not supported`);
    } catch (err) {
      if (err instanceof TokenError) {
        if (err.status === 401) reply.header('www-authenticate', 'Basic realm="oauth"');
        return oauthError(reply, err.status, err.error, err.description);
      }
      if (err instanceof DpopError) return oauthError(reply, 400, err.error, err.description);
      throw err;
    }
  });
}

function deviceGrant(core: AuthCore, req: FastifyRequest, reply: FastifyReply, form: Form) {
  const { app } = clientOf(core, req, form);
  const code = field(form, 'device_code');
  if (!code) fail('invalid_request', 'device_code is required');
  const device = core.store.devices.get(code);
  if (!device || device.appId !== app.id) fail('invalid_grant', 'unknown device_code for this client');
  // The proof comes before polling is counted: a nonce round-trip is not a poll.
  const proof = proofOf(core, req);
  if (proof.jkt !== device.jkt) fail('invalid_dpop_proof', 'the DPoP proof is not by the key the computer attested');
  if (device.state === 'used') fail('invalid_grant', 'this device_code was already exchanged');
  const now = core.now();
  if (now >= device.expiresAt) fail('expired_token', 'the device code expired: start the sign-in again');
  if (device.state === 'denied') fail('access_denied', device.deniedReason ?? 'the person denied the sign-in');
  if (device.lastPollAt !== undefined && now - device.lastPollAt < device.interval * 1000) {
    device.lastPollAt = now;
    device.interval += SLOW_DOWN_STEP_S;
    fail('slow_down', `polling too fast: wait ${device.interval} s between polls`);
  }
  device.lastPollAt = now;
  if (device.state === 'pending') fail('authorization_pending', 'the person has not allowed the sign-in yet');
  device.state = 'used';
  const grant = core.store.createGrant({
    app,
    userId: device.userId!,
    scopes: device.approvedScopes ?? device.scopes,
    machine: device.machine,
    jkt: proof.jkt,
  });
  return reply.send(core.store.issueTokens(grant));
}

function refreshGrant(core: AuthCore, req: FastifyRequest, reply: FastifyReply, form: Form) {
  const { app } = clientOf(core, req, form);
  const token = field(form, 'refresh_token');
  if (!token) fail('invalid_request', 'refresh_token is required');
  const rec = core.store.refresh.get(token);
  if (!rec) fail('invalid_grant', 'unknown refresh token');
  const grant = core.store.grants.get(rec.grantId);
  if (!grant || grant.appId !== app.id) fail('invalid_grant', 'this refresh token was not issued to this client');
  if (grant.jkt) {
    const proof = proofOf(core, req);
    if (proof.jkt !== grant.jkt) fail('invalid_dpop_proof', 'the DPoP proof is not by the key the sign-in is bound to');
  } else if (req.headers.dpop !== undefined) {
    proofOf(core, req); // a bearer sign-in stays bearer, but a proof sent must still be sound
  }
  if (rec.used) {
    // RFC 9700 4.14.2: a used refresh token came back, so one of the two holders is not the app.
    core.store.revokeGrant(grant.id);
    fail('invalid_grant', 'this refresh token was already used: the sign-in is revoked, sign in again');
  }
  if (!core.store.liveGrant(grant.id)) fail('invalid_grant', 'this sign-in has ended (revoked, replaced or expired): sign in again');
  rec.used = true;
  return reply.send(core.store.issueTokens(grant));
}

function codeGrant(core: AuthCore, req: FastifyRequest, reply: FastifyReply, form: Form) {
  const { app } = clientOf(core, req, form);
  const code = field(form, 'code');
  if (!code) fail('invalid_request', 'code is required');
  const redirectUri = field(form, 'redirect_uri');
  if (!redirectUri) fail('invalid_request', 'redirect_uri is required');
  const verifier = field(form, 'code_verifier');
  if (!verifier) fail('invalid_request', 'code_verifier is required (PKCE S256)');
  const rec = core.store.codes.get(code);
  if (!rec || rec.appId !== app.id) fail('invalid_grant', 'unknown authorization code for this client');
  // DPoP: a public app must prove its key; a website with its secret may skip it (bearer tokens).
  let proof: CheckedProof | undefined;
  if (!app.confidential || req.headers.dpop !== undefined || rec.dpopJkt !== undefined) proof = proofOf(core, req);
  if (rec.used) {
    if (rec.grantId) core.store.revokeGrant(rec.grantId);
    fail('invalid_grant', 'this authorization code was already used; the sign-in made with it is revoked');
  }
  if (core.now() >= rec.expiresAt) fail('invalid_grant', 'the authorization code expired');
  if (redirectUri !== rec.redirectUri) fail('invalid_grant', 'redirect_uri differs from the one of the authorization request');
  if (!VERIFIER.test(verifier)) fail('invalid_grant', 'code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~]');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  if (challenge !== rec.codeChallenge) fail('invalid_grant', 'code_verifier does not match the code_challenge (S256)');
  if (rec.dpopJkt !== undefined && proof?.jkt !== rec.dpopJkt) fail('invalid_dpop_proof', 'the DPoP proof is not by the key named in dpop_jkt');
  rec.used = true;
  const grant = core.store.createGrant({ app, userId: rec.userId, scopes: rec.scopes, ...(proof ? { jkt: proof.jkt } : {}) });
  rec.grantId = grant.id;
  return reply.send(core.store.issueTokens(grant));
}
