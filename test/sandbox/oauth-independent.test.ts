// An independent OAuth client (panva's oauth4webapi) completes the device flow with DPoP against
// the whole sandbox and reads /v1/me: the sandbox's OAuth is what a standard client expects.
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import type * as Oauth from 'oauth4webapi' with { 'resolution-mode': 'import' };
import type { RunningSandbox } from '../../src/sandbox';
import { attestation, call, makeMachine, startSandbox, thumbprint, type PublicJwk } from './helpers';

describe('sandbox oauth: an independent client (oauth4webapi)', () => {
  let sb: RunningSandbox;
  let oauth: typeof Oauth;
  before(async () => {
    sb = await startSandbox({ port: 0, manualClock: true });
    oauth = await import('oauth4webapi');
  });
  after(() => sb.close());

  it('completes the device flow with DPoP and reads /v1/me', async () => {
    const base = sb.url;
    const as: Oauth.AuthorizationServer = {
      issuer: base,
      device_authorization_endpoint: `${base}/oauth/device`,
      token_endpoint: `${base}/oauth/token`,
    };
    const client: Oauth.Client = { client_id: 'assistant-cards-vscode' };
    const insecure = { [oauth.allowInsecureRequests]: true }; // loopback http in tests
    const keyPair = await oauth.generateKeyPair('ES256');
    const dpop = oauth.DPoP(client, keyPair);
    const publicJwk = (await webcrypto.subtle.exportKey('jwk', keyPair.publicKey)) as PublicJwk;
    const jkt = thumbprint(publicJwk);
    const machine = await makeMachine(base, 'independent-box');

    const deviceRes = await oauth.deviceAuthorizationRequest(as, client, oauth.None(), {
      scope: 'cards:read assistants:read',
      resource: `${base}/v1`,
      machine: machine.name,
      machine_attestation: attestation(machine, { aud: base, jkt }),
    }, insecure);
    const device = await oauth.processDeviceAuthorizationResponse(as, client, deviceRes);
    assert.equal(device.expires_in, 600);
    assert.equal(device.interval, 3);

    // Before the person allows it, the client hears authorization_pending (after its nonce retry).
    const poll = async () => {
      const once = async () => oauth.processDeviceCodeResponse(as, client, await oauth.deviceCodeGrantRequest(as, client, oauth.None(), device.device_code, { DPoP: dpop, ...insecure }));
      try {
        return await once();
      } catch (err) {
        if (oauth.isDPoPNonceError(err)) return once();
        throw err;
      }
    };
    await assert.rejects(poll(), (err: unknown) => err instanceof oauth.ResponseBodyError && err.error === 'authorization_pending');

    const approve = await call('POST', `${base}/_sandbox/device/approve`, { user_code: device.user_code });
    assert.equal(approve.status, 200, approve.text);
    // The server asks for `interval` seconds between polls: let that pass on the sandbox clock
    // (the client's proofs use real time, still within the 60 s iat window).
    sb.advance((device.interval ?? 5) * 1000);
    const tokens = await poll();
    assert.equal(tokens.token_type, 'dpop');
    assert.equal(tokens.expires_in, 900);
    assert.ok(tokens.refresh_token);

    const read = async () => {
      const once = () => oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(`${base}/v1/me`), undefined, undefined, { DPoP: dpop, ...insecure });
      try {
        return await once();
      } catch (err) {
        if (oauth.isDPoPNonceError(err)) return once();
        throw err;
      }
    };
    const me = await read();
    assert.equal(me.status, 200);
    const body = (await me.json()) as { grant: { scopes: string[]; dpop: boolean; machine: { id: string } } };
    assert.deepEqual(body.grant.scopes, ['cards:read', 'assistants:read']);
    assert.equal(body.grant.dpop, true);
    assert.equal(body.grant.machine.id, machine.id);

    // And its refresh (rotation) works the same way.
    const refreshed = await oauth.processRefreshTokenResponse(as, client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, { DPoP: dpop, ...insecure }));
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
  });
});
