import * as assert from 'node:assert/strict';
import type { CardListEntry } from '../../src/api/schemas';
import type { CardFilter } from '../../src/sync/card-filter';
import { FilterMatch } from '../../src/sync/card-filter-match';

const light = (id: string): CardListEntry => ({ id, version: 1, status: 'pending', turn: 'you', kind: 'choice', title: id, whole: false } as CardListEntry);

describe('the person\'s filter and the ids the service lists for it', () => {
  it('keeps a light entry until the service listed the ids, then judges it by them; a newer filter wins over a slower read', async () => {
    const told: CardFilter[] = [];
    let release: (() => void) | undefined;
    const byPerson: boolean[] = [];
    const match = new FilterMatch({
      lists: {
        read: async (_status, _scope, o) => {
          byPerson.push(o?.byPerson === true);
          if (o?.filter?.assistants?.[0] === 'ast_slow') await new Promise<void>((r) => { release = r; });
          return [light('req_in')];
        },
      },
      scope: () => ({ kind: 'machine' }),
      statuses: () => ['pending'],
      changed: (f) => told.push(f),
    });
    const slow = match.set({ assistants: ['ast_slow'] });
    assert.ok(match.matches(light('req_out')), 'not listed yet: kept');
    await match.set({ assistants: ['ast_1'] });
    assert.ok(match.matches(light('req_in')));
    assert.ok(!match.matches(light('req_out')), 'listed: judged by the ids');
    release?.();
    await slow;
    assert.deepEqual(match.get(), { assistants: ['ast_1'] }, 'the slow read of the older filter changed nothing');
    assert.equal(told.length, 3, 'told: each filter set, and the answer for the newer one');
    await match.readAgain();
    assert.deepEqual(byPerson, [true, true, false], 'the person\'s reads, then a background one');
    match.forgetListed();
    assert.ok(match.matches(light('req_out')));
  });
});
