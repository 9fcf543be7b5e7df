// POST /oauth/device (RFC 8628 3.1 plus the computer attestation of DESIGN).
import type { FastifyInstance } from 'fastify';
import { checkAttestation } from './attestation';
import type { AuthCore } from './core';
import { field, formOf, oauthError } from './forms';
import { newSecret, newUserCode } from './ids';
import { askedScopes } from './scopes';
import { DEVICE_CODE_S, DEVICE_INTERVAL_S, type DeviceRecord } from './store';

export function registerDeviceRoute(app: FastifyInstance, core: AuthCore): void {
  app.post('/oauth/device', async (req, reply) => {
    const form = formOf(req.body);
    const repeated = Object.entries(form).find(([, v]) => Array.isArray(v));
    if (repeated) return oauthError(reply, 400, 'invalid_request', `${repeated[0]} is repeated`);
    const base = core.baseUrl(req);
    const clientId = field(form, 'client_id');
    if (!clientId) return oauthError(reply, 400, 'invalid_request', 'client_id is required');
    const appRec = core.store.appByClientId(clientId);
    if (!appRec) return oauthError(reply, 401, 'invalid_client', `no app is registered with client_id ${clientId}`);
    if (appRec.removed) return oauthError(reply, 401, 'invalid_client', 'app_not_available: the person removed this app');
    if (appRec.confidential) return oauthError(reply, 400, 'unauthorized_client', 'a website with a server signs in with the authorization code flow');
    const scopes = askedScopes(field(form, 'scope'), appRec);
    if (typeof scopes === 'string') return oauthError(reply, 400, 'invalid_scope', scopes);
    const resource = field(form, 'resource');
    if (resource === undefined) return oauthError(reply, 400, 'invalid_request', `resource is required: ${base}/v1`);
    if (resource !== `${base}/v1`) return oauthError(reply, 400, 'invalid_target', `resource must be ${base}/v1`);
    const machineName = field(form, 'machine');
    if (!machineName) return oauthError(reply, 400, 'invalid_request', 'machine (the computer name) is required');
    const attested = checkAttestation(field(form, 'machine_attestation'), {
      machines: core.store.machines,
      baseUrl: base,
      nowMs: core.now(),
      seenJtis: core.attestationJtis,
    });
    if ('reason' in attested) return oauthError(reply, 400, 'invalid_request', attested.reason);

    const now = core.now();
    let userCode = newUserCode();
    while (core.store.userCodes.has(userCode)) userCode = newUserCode();
    const device: DeviceRecord = {
      deviceCode: newSecret(32),
      userCode,
      appId: appRec.id,
      scopes,
      machine: { id: attested.machine.id, name: attested.machine.name },
      jkt: attested.jkt,
      createdAt: now,
      expiresAt: now + DEVICE_CODE_S * 1000,
      interval: DEVICE_INTERVAL_S,
      state: 'pending',
      formToken: newSecret(18),
    };
    core.store.devices.set(device.deviceCode, device);
    core.store.userCodes.set(userCode, device);
    return reply.header('cache-control', 'no-store').send({
      device_code: device.deviceCode,
      user_code: userCode,
      verification_uri: `${base}/device`,
      verification_uri_complete: `${base}/device?user_code=${encodeURIComponent(userCode)}`,
      expires_in: DEVICE_CODE_S,
      interval: DEVICE_INTERVAL_S,
      client_id: appRec.clientId,
    });
  });
}
