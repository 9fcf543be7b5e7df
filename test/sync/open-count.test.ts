// Whose open count in the Assistants view a card's change moved (src/sync/open-count.ts).
import { strict as assert } from 'node:assert';
import type { CardListEntry } from '../../src/api/schemas';
import { openCountMovedFor } from '../../src/sync/open-count';

const card = (o: Partial<Record<'status' | 'turn', string>> & { agent?: string | null } = {}): CardListEntry => ({
  id: 'req_1', version: 1, kind: 'approval', title: 'Run it?', status: o.status ?? 'pending', turn: o.turn ?? 'you',
  ...(o.agent === null ? {} : { assistant: { id: 'ast_1', name: 'api' }, agent: { id: o.agent ?? 'agt_1', name: 'main' } }),
} as unknown as CardListEntry);
const light = (status = 'pending'): CardListEntry => ({ id: 'req_1', version: 1, kind: 'approval', title: 'Run it?', status, turn: 'you', whole: false } as unknown as CardListEntry);

describe('openCountMovedFor: an agent\'s open cards (pending or snoozed, the person\'s turn)', () => {
  const rows: [string, CardListEntry | undefined, CardListEntry | undefined, string | undefined][] = [
    ['a card waiting on the person comes', undefined, card(), 'agt_1'],
    ['a snoozed one comes', undefined, card({ status: 'snoozed' }), 'agt_1'],
    ['one waiting on the assistant comes', undefined, card({ turn: 'agent' }), undefined],
    ['answered: it goes', card(), card({ status: 'answered', turn: 'agent' }), 'agt_1'],
    ['Later: still counted', card(), card({ status: 'snoozed' }), undefined],
    ['handed over: it goes', card(), card({ status: 'delegated' }), 'agt_1'],
    ['undone: back to the person', card({ status: 'answered', turn: 'agent' }), card(), 'agt_1'],
    ['removed while waiting', card(), undefined, 'agt_1'],
    ['removed when done', card({ status: 'done', turn: 'agent' }), undefined, undefined],
    ['a new version, still waiting', card(), card(), undefined],
    ['a card that names no agent', undefined, card({ agent: null }), undefined],
    ['the lighter form names no agent', undefined, light(), undefined],
    ['filled whole after its light row: no move', light(), card(), undefined],
    ['a light row read whole as answered: the whole names it', light(), card({ status: 'answered', turn: 'agent' }), 'agt_1'],
  ];
  for (const [what, previous, next, want] of rows) {
    it(what, () => assert.equal(openCountMovedFor(previous, next), want));
  }
});
