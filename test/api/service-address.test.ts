// http: only to this computer's loopback; everything else must be https: (the setting and the
// identity file's baseUrl both reach createClientCore, which checks them).
import { strict as assert } from 'node:assert';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkServiceAddress, InsecureAddressError } from '../../src/api/service-address';
import { MemorySecretStore } from '../../src/auth/secret-store';
import { createClientCore } from '../../src/sync/session';

describe('api: the service address is https, or http to loopback only', () => {
  it('accepts https anywhere and http on 127.0.0.0/8, localhost and [::1]', () => {
    for (const ok of [
      'https://cards.example.com', 'https://10.0.0.5:8443', 'http://127.0.0.1:4000', 'http://127.8.9.10',
      'http://localhost:3000', 'http://LOCALHOST', 'http://[::1]:9000', 'http://2130706433',
    ]) {
      assert.doesNotThrow(() => checkServiceAddress(ok), ok);
    }
  });

  it('refuses http to any other host, naming the address and saying to use https', () => {
    for (const bad of [
      'http://cards.example.com', 'http://10.0.0.5:8080', 'http://128.0.0.1', 'http://localhost.evil.com',
      'http://127.0.0.1.evil.com', 'http://[::2]', 'http://[::ffff:7f00:1]', 'http://0.0.0.0:3000',
    ]) {
      assert.throws(() => checkServiceAddress(bad), (e: unknown) => {
        assert.ok(e instanceof InsecureAddressError, bad);
        assert.ok(e.message.includes(bad), e.message);
        assert.match(e.message, /https:\/\//);
        return true;
      });
    }
  });

  it('refuses other schemes and non-addresses', () => {
    assert.throws(() => checkServiceAddress('ftp://127.0.0.1'), InsecureAddressError);
    assert.throws(() => checkServiceAddress('cards.example.com'), InsecureAddressError);
  });

  it('the client core is never built on an http address to another host', async () => {
    const o = { secretStore: new MemorySecretStore(), lockDir: path.join(os.tmpdir(), 'ac-addr-locks'), machineFile: path.join(os.tmpdir(), 'absent.json') };
    assert.throws(() => createClientCore({ ...o, baseUrl: 'http://cards.example.com' }), (e: unknown) =>
      e instanceof InsecureAddressError && /http:\/\/cards\.example\.com/.test(e.message) && /https/.test(e.message));
    const local = createClientCore({ ...o, baseUrl: 'http://127.0.0.1:9' });
    await local.dispose();
  });
});
