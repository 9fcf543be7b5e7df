import assert from 'node:assert/strict';
import { startAuthServer, signIn, type AuthServer } from './helpers';

describe('sandbox oauth: device flow smoke', () => {
  let srv: AuthServer;
  before(async () => {
    srv = await startAuthServer();
  });
  after(() => srv.close());

  it('signs in through the device flow and reads /v1/me', async () => {
    const s = await signIn(srv.url);
    const me = await s.request('GET', '/v1/me');
    assert.equal(me.status, 200, me.text);
    assert.equal(me.json.app.id, 'app_assistant-cards-vscode');
    assert.equal(me.json.grant.dpop, true);
  });
});
