// The sandbox's zod-free copies of the enums must equal the wire schemas' lists.
import assert from 'node:assert/strict';
import * as api from '../../src/api/schemas';
import * as local from '../../src/sandbox/constants';

describe('sandbox constants', () => {
  it('equal src/api/schemas.ts', () => {
    assert.equal(local.SERVICE_VERSION, api.SERVICE_VERSION);
    assert.deepEqual(local.KNOWN_APPS, api.KNOWN_APPS);
    assert.deepEqual(local.KNOWN_KINDS, api.KNOWN_KINDS);
    assert.deepEqual(local.CARD_STATUSES, api.CARD_STATUSES);
    assert.deepEqual(local.SCOPES, api.SCOPES);
    assert.deepEqual(local.PROBLEM_CODES, api.PROBLEM_CODES);
  });
});
