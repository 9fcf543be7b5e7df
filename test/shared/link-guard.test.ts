// Card and notice links to this computer's addresses: opened at once only where the service itself
// is on loopback; otherwise the person confirms the address first (src/editor/open-link.ts).
import * as assert from 'node:assert/strict';
import { isLocalAddress, linkDecision } from '../../src/shared/link-guard';

describe('link guard: loopback links from card text', () => {
  const real = 'https://cards.example.com';
  const sandbox = 'http://127.0.0.1:43123';

  it('a loopback link from a real service\'s card asks first: localhost, 127.0.0.0/8, [::1], 0.0.0.0, *.localhost, mapped IPv4', () => {
    for (const url of [
      'http://localhost:22/', 'http://LOCALHOST.:8080/x', 'http://127.0.0.1:5432', 'http://127.9.8.7/', 'https://[::1]:9229/',
      'http://0.0.0.0:3000/', 'http://admin.localhost/', 'http://[::ffff:127.0.0.1]:22/', 'http://2130706433:22/', 'http://0x7f.1:22/',
    ]) {
      assert.equal(linkDecision(url, real), 'confirm', url);
      assert.equal(linkDecision(url, undefined), 'confirm', `${url} with no service address`);
    }
  });

  it('a loopback link opens at once only on the service\'s own origin (the sandbox\'s own card pages)', () => {
    assert.equal(linkDecision('http://127.0.0.1:43123/cards/req_1', sandbox), 'open');
    assert.equal(linkDecision('http://127.0.0.1:43123/device?user_code=ABCD', sandbox), 'open');
  });

  it('another local address asks first even while the service is on loopback: another port, name or scheme (#37)', () => {
    for (const url of ['http://localhost:22/', 'http://127.0.0.1:22/', 'http://localhost:43123/', 'https://127.0.0.1:43123/', 'http://[::1]:43123/']) {
      assert.equal(linkDecision(url, sandbox), 'confirm', url);
    }
    assert.equal(linkDecision('http://localhost:3000/', 'http://localhost:43123'), 'confirm');
  });

  it('other addresses open at once, whatever the service', () => {
    for (const url of ['https://example.com/build/1', 'http://10.0.0.5/', 'https://127.0.0.1.nip.io/', 'https://localhost.example.com/']) {
      assert.equal(linkDecision(url, real), 'open', url);
    }
  });

  it('an address that cannot be read is never opened unasked', () => {
    assert.equal(linkDecision('not a url', real), 'confirm');
  });

  it('isLocalAddress: names that only look local are not', () => {
    assert.ok(!isLocalAddress('localhost.example.com'));
    assert.ok(!isLocalAddress('127.0.0.1.example.com'));
    assert.ok(!isLocalAddress('[::2]'));
  });
});
