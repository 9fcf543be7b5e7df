import * as assert from 'node:assert/strict';
import type { CardListEntry } from '../../src/api/schemas';
import { CardListReader } from '../../src/sync/card-lists';

type Query = Record<string, unknown>;

/** A list endpoint that records each query and answers the pages it is given (by `after`). */
function reader(pages: Record<string, { cards: CardListEntry[]; next?: string }> = {}) {
  const queries: Query[] = [];
  const gated: boolean[] = [];
  const lists = new CardListReader({
    api: {
      listCards: async (q: Query, o: { byPerson?: boolean }) => {
        queries.push(q);
        gated.push(!o.byPerson);
        return pages[String(q.after ?? '')] ?? { cards: [] };
      },
    } as never,
    beforeRead: async () => undefined,
    syncSignal: () => undefined,
  });
  return { lists, queries, gated };
}

const light = (id: string, kind = 'choice'): CardListEntry => ({ id, version: 1, status: 'pending', turn: 'you', kind, title: id, whole: false } as CardListEntry);

describe('card lists, read for a scope and the person\'s filter', () => {
  it('read a workspace\'s assistants 20 ids a request, then the notices alone', async () => {
    const { lists, queries } = reader({ '': { cards: [light('req_a'), light('ntc_1', 'update')] } });
    const ids = Array.from({ length: 21 }, (_, i) => `ast_${i}`);
    const cards = await lists.read('pending', { kind: 'workspace', assistantIds: ids });
    assert.deepEqual(queries.map((q) => (q.assistant as string[] | undefined)?.length), [20, 1, undefined]);
    assert.equal(queries[2]!.whole, 0, 'the notices\' read needs only their light form');
    // Each of the three answers the same page; the notices' read keeps only the notice.
    assert.deepEqual(cards.map((c) => c.id), ['req_a', 'ntc_1', 'req_a', 'ntc_1', 'ntc_1']);
  });

  it('read one computer of a sign-in that reaches every computer, and page through `next`', async () => {
    const { lists, queries } = reader({ '': { cards: [light('req_a')], next: 'p2' }, p2: { cards: [light('req_b')] } });
    const cards = await lists.read('snoozed', { kind: 'machine', machineId: 'mch_1' });
    assert.deepEqual(queries.slice(0, 2).map((q) => [q.status, q.machine, q.after]), [['snoozed', ['mch_1'], undefined], ['snoozed', ['mch_1'], 'p2']]);
    assert.deepEqual(cards.slice(0, 2).map((c) => c.id), ['req_a', 'req_b']);
  });

  it('narrow the filter\'s assistants to the scope\'s, list no notices for it, and let the person\'s read pass the budget', async () => {
    const { lists, queries, gated } = reader();
    await lists.read('pending', { kind: 'workspace', assistantIds: ['ast_1', 'ast_2'] }, { filter: { assistants: ['ast_2', 'ast_9'] }, byPerson: true });
    assert.deepEqual(queries.map((q) => q.assistant), [['ast_2']]);
    assert.equal(queries[0]!.whole, 0, 'a filtered read needs only the ids');
    assert.deepEqual(gated, [false]);
  });
});
