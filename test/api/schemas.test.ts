import { strict as assert } from 'node:assert';
import { Assistant, Card, CardList, ChangeList, Problem } from '../../src/api/schemas';

describe('api schemas: additive /v1 changes never break a read', () => {
  it('unknown fields are dropped out of the way; unknown kind, status, turn parse as strings', () => {
    const c = Card.parse({ id: 'req_1', version: 1, status: 'parked', turn: 'someone', kind: 'poll', title: 'T', brandNew: { x: 1 } });
    assert.equal(c.kind, 'poll');
    assert.equal(c.status, 'parked');
    assert.equal((c as Record<string, unknown>).brandNew, undefined);
  });

  it('a list mixes whole and lighter cards', () => {
    const l = CardList.parse({ cards: [
      { id: 'req_1', version: 1, status: 'pending', turn: 'you', kind: 'choice', title: 'A', summary: 's', options: [{ id: 'a', label: 'A' }] },
      { id: 'req_2', version: 1, status: 'pending', turn: 'you', kind: 'text', title: 'B', whole: false },
    ], next: 'c2', total: 9 });
    assert.equal(l.cards.length, 2);
    assert.equal(l.next, 'c2');
  });

  it('an unknown app and agent state parse; unknown change types parse', () => {
    const a = Assistant.parse({ id: 'con_1', app: 'newtool', appName: 'New', name: 'n', machine: { id: 'mch_1', name: 'm' }, hears: 'always',
      agents: [{ id: 'agt_1', name: 'a', state: 'sleeping', openCards: 0, liveSessions: [{ appSessionId: 's', cwd: '/', liveAt: 'x', terminal: { pid: 1, extra: true } }] }] });
    assert.equal(a.app, 'newtool');
    assert.equal(ChangeList.parse({ changes: [{ type: 'card.moved', cardId: 'req_1', at: 'x' }], cursor: 'c', more: false }).changes[0]!.type, 'card.moved');
  });

  it('a problem without its required fields does not parse (the client then reports a malformed answer)', () => {
    assert.equal(Problem.safeParse({ code: 'x' }).success, false);
  });
});
