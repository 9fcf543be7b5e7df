// The person's card filter: its query filters, how whole and light entries are judged, and that
// the filter reaches the service (against the sandbox, light entries included).
import { strict as assert } from 'node:assert';
import type { ApiClient, CardsQuery } from '../../src/api/client';
import { silentLogger } from '../../src/api/runtime';
import type { Card, CardListEntry } from '../../src/api/schemas';
import { filterQuery, isFilterEmpty, wholePasses } from '../../src/sync/card-filter';
import { testCardModel } from './card-model-ports';
import { CountingTransport, until, makeWorld, signInCore } from '../kit';
import type { World } from '../kit';
import { createTransport, type HttpTransport } from '../../src/api/http';

const whole = (id: string, o: Partial<Card> = {}): Card => ({ id, version: 1, status: 'pending', turn: 'you', kind: 'choice', title: id, ...o });
const light = (id: string, o: Partial<CardListEntry> = {}): CardListEntry => ({ id, version: 1, status: 'pending', turn: 'you', kind: 'choice', title: id, whole: false, ...o });

describe('sync: card filter', () => {
  it('every filter of the list query: area, assistant, agent, app, machine, threadId', () => {
    assert.ok(isFilterEmpty({}));
    assert.ok(isFilterEmpty({ agents: [] }));
    assert.deepEqual(filterQuery({
      areas: ['prj_a'], assistants: ['con_a'], agents: ['agt_a', 'agt_b'], apps: ['codex'], machines: ['mch_a'], threadId: 'req_t',
    }), { area: ['prj_a'], assistant: ['con_a'], agent: ['agt_a', 'agt_b'], app: ['codex'], machine: ['mch_a'], threadId: 'req_t' });
    assert.equal(filterQuery({ machines: Array.from({ length: 12 }, (_, i) => `mch_${i}`) }).machine?.length, 10, 'at most what the service takes');
  });

  it('a whole card is judged on its fields (filters AND, values OR); a light one cannot be, but for its thread', () => {
    const c = whole('req_1', {
      area: { id: 'prj_a', name: 'A' }, assistant: { id: 'con_a', name: 'C', app: 'codex' }, agent: { id: 'agt_a', name: 'main' },
      machine: { id: 'mch_a', name: 'laptop' }, threadId: 'req_t',
    });
    assert.equal(wholePasses(c, { agents: ['agt_a', 'agt_b'] }), true);
    assert.equal(wholePasses(c, { agents: ['agt_b'] }), false);
    assert.equal(wholePasses(c, { machines: ['mch_a'], apps: ['codex'] }), true);
    assert.equal(wholePasses(c, { machines: ['mch_a'], apps: ['cursor'] }), false);
    assert.equal(wholePasses(c, { threadId: 'req_t' }), true);
    assert.equal(wholePasses(c, { threadId: 'req_u' }), false);
    assert.equal(wholePasses(whole('req_n', { kind: 'update' }), { apps: ['webhook'] }), true);
    assert.equal(wholePasses(light('req_2'), { agents: ['agt_a'] }), undefined);
    assert.equal(wholePasses(light('req_2', { threadId: 'req_u' }), { threadId: 'req_t' }), false);
  });

  it('the model sends the filter as query filters and judges light entries by the service\'s answer', async () => {
    const queries: CardsQuery[] = [];
    const api = {
      listCards: async (q: CardsQuery) => {
        queries.push(q);
        if (q.status !== 'pending') return { cards: [], next: null };
        // Unfiltered: one whole, two light. Filtered by agent: the service lists req_l1 only.
        if (q.agent) return { cards: [light('req_l1')], next: null };
        return { cards: [whole('req_w', { agent: { id: 'agt_b', name: 'other' } }), light('req_l1'), light('req_l2')], next: null };
      },
    } as unknown as ApiClient;
    const m = testCardModel({ api, logger: silentLogger });
    m.setScope({ kind: 'workspace', assistantIds: ['con_a', 'con_b'] });
    await m.fullRead();
    const fired: unknown[] = [];
    m.filterChanged((f) => fired.push(f));
    queries.length = 0;
    await m.setFilter({ agents: ['agt_a'], assistants: ['con_a', 'con_z'] });
    assert.equal(fired.length, 2, 'once on the change, once when the service answered');
    const sent = queries.find((q) => q.status === 'pending')!;
    assert.deepEqual(sent.agent, ['agt_a']);
    assert.deepEqual(sent.assistant, ['con_a'], 'the filter\'s assistants narrowed to the window\'s');
    assert.equal(sent.whole, 0, 'only ids are needed');
    assert.ok(!queries.some((q) => q.assistant === undefined), 'no notices pass: a notice has no agent');
    assert.deepEqual(m.list('pending').filter((c) => m.matches(c)).map((c) => c.id), ['req_l1']);
    await m.setFilter({});
    assert.equal(m.list('pending').filter((c) => m.matches(c)).length, 3);
  });

  it('a light entry keeps who asked once a whole form of the card was seen', async () => {
    let version = 1;
    const asker = { assistant: { id: 'con_a', name: 'api', app: 'codex' }, agent: { id: 'agt_a', name: 'main' } };
    const api = { listCards: async (q: CardsQuery) => ({ cards: q.status === 'pending' ? [light('req_1', { version })] : [], next: null }) } as unknown as ApiClient;
    const m = testCardModel({ api, logger: silentLogger });
    m.setScope({ kind: 'machine' });
    m.upsert(whole('req_1', asker));
    version = 2; // the card changed: the list now sends a newer light form
    await m.fullRead();
    const held = m.get('req_1') as Card;
    assert.equal(held.version, 2);
    assert.equal(held.whole, false);
    assert.deepEqual(held.assistant, asker.assistant);
    assert.deepEqual(held.agent, asker.agent);
  });
});

describe('sync: card filter against the sandbox', () => {
  let w: World;
  before(async () => {
    w = await makeWorld({ me: false });
  });
  after(async () => {
    await w.close();
  });

  it('filters by agent, computer and thread through the service, light entries included', async () => {
    const mine = [];
    for (let i = 0; i < 4; i++) mine.push(await w.card({ title: `mine ${i}` }));
    const theirs = [];
    for (let i = 0; i < 4; i++) theirs.push((await w.ctl('POST', '/_sandbox/cards', { agentId: w.helperAgentId, kind: 'text', title: `theirs ${i}` })).json as { id: string });
    // Reads of one card by id wait (the model would read light rows whole): the light entries stay light.
    let release!: () => void;
    const byIdGate = new Promise<void>((r) => { release = r; });
    const inner = createTransport();
    const transport: HttpTransport = {
      send: async (req) => { if (/\/v1\/cards\/req_[^/]*$/.test(new URL(req.url).pathname) && req.method === 'GET') await byIdGate; return inner.send(req); },
      close: () => { release(); return inner.close(); },
    };
    const core = w.core({ transport: new CountingTransport(transport) });
    await signInCore(w, core);
    await until(() => core.cards.list('pending').length === 8);
    assert.ok(core.cards.list('pending').some((c) => c.whole === false), 'some entries are light (past the first `whole`)');
    const shown = () => core.cards.list('pending').filter((c) => core.cards.matches(c)).map((c) => c.id).sort();

    await core.cards.setFilter({ agents: [w.helperAgentId] });
    assert.deepEqual(shown(), theirs.map((c) => c.id).sort());
    assert.ok(core.transport.log.some((l) => l.path === '/v1/cards' && new URL(l.url).searchParams.getAll('agent').includes(w.helperAgentId)), 'the agent went to the service');

    await core.cards.setFilter({ machines: [w.machineId] });
    assert.equal(shown().length, 8);
    await core.cards.setFilter({ machines: ['mch_elsewhere'] });
    assert.deepEqual(shown(), []);

    await core.cards.setFilter({ threadId: mine[2]!.id });
    assert.deepEqual(shown(), [mine[2]!.id]);
    await core.cards.setFilter({});
    assert.equal(shown().length, 8);
    release();
  });
});
