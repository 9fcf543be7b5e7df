import * as assert from 'node:assert/strict';
import { withoutDeadAddress } from '../../src/shared/identity-address';

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
});
