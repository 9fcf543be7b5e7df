import * as assert from 'node:assert/strict';
import type { Card } from '../../src/api/schemas';
import { CardHolds } from '../../src/sync/card-holds';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const answered = (version: number, undoUntil?: string): Card => ({
  id: 'req_1', version, status: 'answered', turn: 'agent', kind: 'choice', title: 'T', ...(undoUntil ? { undoUntil } : {}),
} as Card);

describe('card holds, on this computer\'s clock', () => {
  it('keep the service\'s undoUntil as a local deadline, once per version', () => {
    // The service's clock is 10 s ahead of this one.
    const holds = new CardHolds({ now: () => NOW, skewMs: () => 10_000 });
    const local = holds.onLocalClock(answered(2, new Date(NOW + 10_000 + 3_000).toISOString()));
    assert.equal(local.undoUntil, new Date(NOW + 3_000).toISOString());
    assert.equal(holds.untilOf(local), NOW + 3_000);
    assert.equal(holds.untilOf(answered(3)), undefined, 'another version: no hold');
    assert.equal(holds.untilOf({ ...local, status: 'pending' }), undefined, 'not answered: no hold');
  });

  it('keep a press\'s deadline for the version it left, whatever a later read of it says', () => {
    const holds = new CardHolds({ now: () => NOW, skewMs: () => 0 });
    holds.set(answered(2), NOW + 5_000);
    assert.equal(holds.onLocalClock(answered(2, new Date(NOW + 4_000).toISOString())).undoUntil, new Date(NOW + 5_000).toISOString());
    holds.delete('req_1');
    assert.equal(holds.untilOf(answered(2)), undefined);
  });
});
