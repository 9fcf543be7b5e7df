import * as assert from 'node:assert/strict';
import { sandboxServing, withoutDeadAddress } from '../../src/shared/identity-address';

describe('a dead sandbox\'s address in its identity file', () => {
  const url = 'http://127.0.0.1:41234';
  const made = { id: 'mch_1', name: 'laptop', baseUrl: url, privateJwk: { kty: 'EC' }, madeBy: 'sandbox' };

  it('is blanked in the file that sandbox made, everything else kept', () => {
    const out = withoutDeadAddress(JSON.stringify(made), url);
    assert.ok(out);
    assert.deepEqual(JSON.parse(out), { ...made, baseUrl: '' });
  });

  it('leaves a real service\'s identity, another run\'s address and anything unreadable as they are', () => {
    assert.equal(withoutDeadAddress(JSON.stringify({ ...made, madeBy: undefined }), url), undefined, 'not sandbox-made');
    assert.equal(withoutDeadAddress(JSON.stringify({ ...made, baseUrl: 'http://127.0.0.1:5000' }), url), undefined, 'another sandbox\'s');
    assert.equal(withoutDeadAddress('{ not json', url), undefined);
    assert.equal(withoutDeadAddress('[]', url), undefined);
  });

  it('names the process serving the address; blanked only while it still names the gone one (#37)', () => {
    const serving = { ...made, sandbox: { pid: 4242, host: 'laptop' } };
    assert.deepEqual(sandboxServing(JSON.stringify(serving), url), { pid: 4242, host: 'laptop' });
    assert.equal(sandboxServing(JSON.stringify(serving), 'http://127.0.0.1:5000'), undefined, 'another address');
    assert.equal(sandboxServing(JSON.stringify(made), url), undefined, 'an older sandbox\'s file names none');
    assert.equal(sandboxServing(JSON.stringify({ ...serving, madeBy: undefined }), url), undefined, 'not sandbox-made');
    assert.equal(sandboxServing(JSON.stringify({ ...made, sandbox: { pid: '4242', host: 'laptop' } }), url), undefined);
    const out = withoutDeadAddress(JSON.stringify(serving), url, 4242);
    assert.ok(out);
    assert.deepEqual(JSON.parse(out), { ...made, baseUrl: '' }, 'the address and its process go');
    assert.equal(withoutDeadAddress(JSON.stringify({ ...serving, sandbox: { pid: 99, host: 'laptop' } }), url, 4242), undefined, 'a new sandbox at the same address keeps it');
  });
});
