// A new session's first prompt in workspace scope (#53): its card is read once, kept aside while
// the window does not know the session yet, and let in when the assistants read grows the scope,
// not read a second time with every list. The editor's part (unknownAsker -> assistants read ->
// the terminal matched -> setScope) is played here by two listeners, as assistants-feature.ts
// and card-scope.ts wire it.
import { strict as assert } from 'node:assert';
import type { Assistant, Card } from '../../src/api/schemas';
import { CardsAside, grownBy, holdsWaitingOf } from '../../src/sync/cards-aside';
import { makeWorld, signInCore, type World } from '../kit';

describe('cards kept aside while out of a workspace scope', () => {
  describe('with the sandbox and a client core', () => {
    let w: World;
    beforeEach(async () => { w = await makeWorld({ me: false }); });
    afterEach(async () => { await w.close(); });

    const register = async (appSessionId: string, title: string) => {
      const r = await fetch(`${w.url}/_ask/sessions`, {
        method: 'POST', headers: { authorization: `Bearer ${w.sb.askKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ app: 'claude-code', appSessionId, cwd: '/home/dev/shop', name: 'api', card: { kind: 'approval', title, reason: 'permission' } }),
      });
      assert.equal(r.status, 200, await r.clone().text());
      return ((await r.json()) as { card: { id: string } }).card.id;
    };

    /** A window in workspace scope whose terminals run session `sessionId` once the assistants read names it. */
    const windowOf = async (sessionId: string) => {
      const core = w.core({ scope: { kind: 'workspace', assistantIds: [] } });
      core.feed.setFocused(true);
      core.cards.unknownAsker(() => void core.assistants.refresh().catch(() => undefined));
      core.assistants.changed((list) => core.cards.setScope({
        kind: 'workspace',
        assistantIds: list.filter((a) => a.agents.some((g) => g.liveSessions.some((s) => s.appSessionId === sessionId))).map((a) => a.id),
      }));
      await signInCore(w, core);
      await w.advance(1_000);
      return core;
    };
    const reads = (core: { transport: { log: { method: string; path: string }[] } }, from: number, id: string) => {
      const got = core.transport.log.slice(from).filter((l) => l.method === 'GET');
      return { byId: got.filter((l) => l.path === `/v1/cards/${id}`).length, lists: got.filter((l) => l.path === '/v1/cards').length };
    };

    it('the first prompt of a new session costs one read of its card and no list read', async () => {
      const core = await windowOf('sess-new');
      const from = core.transport.log.length;
      const id = await register('sess-new', 'Run npm test?');
      await w.advanceUntil(() => core.cards.groupOf(id) === 'pending', 100, 10_000);
      await w.advance(3_000); // whatever would follow (a full read) has had its time
      assert.equal(core.cards.groupOf(id), 'pending');
      assert.equal(core.cards.held(id)?.title, 'Run npm test?', 'held whole, as it was read');
      assert.deepEqual(reads(core, from, id), { byId: 1, lists: 0 });
    });

    it('a card of the same assistant waiting from before, which the window never read: the lists are read and it shows too', async () => {
      const older = await w.card({ title: 'Asked before this window signed in' });
      const core = await windowOf('sess-new');
      assert.equal(core.cards.get(older.id), undefined, 'out of scope at the first read');
      const from = core.transport.log.length;
      const id = await register('sess-new', 'Run npm test?');
      await w.advanceUntil(() => core.cards.groupOf(id) === 'pending' && core.cards.groupOf(older.id) === 'pending', 100, 10_000);
      assert.ok(reads(core, from, id).lists > 0, 'the assistants read named a waiting card the window did not hold');
    });
  });

  describe('its parts', () => {
    const card = (id: string, assistantId: string, o: Partial<Card> = {}) =>
      ({ id, version: 1, kind: 'approval', status: 'pending', turn: 'you', title: id, assistant: { id: assistantId, name: 'A' }, agent: { id: `agt_${assistantId}`, name: 'main' }, ...o }) as unknown as Card;
    const workspace = (...ids: string[]) => ({ kind: 'workspace' as const, assistantIds: ids });

    it('keeps only open, asked cards whose assistant is outside the scope, the newest read of each; takes them out by assistant', () => {
      const aside = new CardsAside();
      aside.saw(card('c1', 'con_a'), workspace('con_b'));
      aside.saw(card('c2', 'con_b'), workspace('con_b')); // in scope: the model holds it
      aside.saw(card('c3', 'con_a', { status: 'done' }), workspace());
      aside.saw(card('c4', 'con_a', { kind: 'update' }), workspace());
      aside.saw(card('c5', 'con_c'), { kind: 'machine' });
      aside.saw(card('c1', 'con_a', { version: 2 }), workspace('con_b'));
      assert.equal(aside.size, 1);
      assert.deepEqual(aside.take(['con_a']).map((c) => [c.id, c.version]), [['c1', 2]]);
      assert.equal(aside.size, 0);
    });

    it('a card read closed or not found is no longer kept', () => {
      const aside = new CardsAside();
      aside.saw(card('c1', 'con_a'), workspace());
      aside.saw(card('c2', 'con_a'), workspace());
      aside.saw(card('c1', 'con_a', { status: 'done', version: 3 }), workspace());
      aside.forget('c2');
      assert.deepEqual(aside.take(['con_a']), []);
    });

    it('keeps at most 200 cards, the oldest read going first', () => {
      const aside = new CardsAside();
      for (let i = 0; i < 205; i++) aside.saw(card(`c${i}`, 'con_a'), workspace());
      const kept = aside.take(['con_a']).map((c) => c.id);
      assert.equal(kept.length, 200);
      assert.equal(kept[0], 'c5');
    });

    it('grownBy: the assistants a workspace scope gained, only when none left it', () => {
      assert.deepEqual(grownBy(workspace('a'), workspace('a', 'b')), ['b']);
      assert.equal(grownBy(workspace('a'), workspace('b')), undefined);
      assert.equal(grownBy(workspace('a'), workspace('a')), undefined);
      assert.equal(grownBy({ kind: 'machine' }, workspace('a')), undefined);
      assert.equal(grownBy(workspace(), { kind: 'everywhere' }), undefined);
    });

    it('holdsWaitingOf: every agent\'s openCards held; an assistant the read does not name is not', () => {
      const assistants = [{ id: 'con_a', agents: [{ id: 'agt_1', openCards: 1 }, { id: 'agt_2', openCards: 0 }] }] as unknown as Assistant[];
      const held = (n: Record<string, number>) => ({ waitingOf: (agentId: string) => n[agentId] ?? 0 });
      assert.equal(holdsWaitingOf(['con_a'], assistants, held({ agt_1: 1 })), true);
      assert.equal(holdsWaitingOf(['con_a'], assistants, held({ agt_2: 1 })), false);
      assert.equal(holdsWaitingOf(['con_b'], assistants, held({ agt_1: 1 })), false);
    });
  });
});
