// The card model on a scripted API: groups, order, events, light vs whole, scope.
import { strict as assert } from 'node:assert';
import type { ApiClient, CardsQuery } from '../../src/api/client';
import { ApiProblemError } from '../../src/api/errors';
import { silentLogger } from '../../src/api/runtime';
import type { Card, CardListEntry } from '../../src/api/schemas';
import { groupOfCard } from '../../src/sync/card-model';
import type { Group } from '../../src/sync/contract';
import { AnswersModel } from '../../src/sync/answers-model';
import { testCardModel } from './card-model-ports';
import { classesOf, RequestBudget } from '../../src/sync/budget';

const card = (id: string, o: Partial<Card> = {}): Card => ({ id, version: 1, status: 'pending', turn: 'you', kind: 'choice', title: id, ...o });

function fakeApi(lists: Partial<Record<string, CardListEntry[]>>, cards: Record<string, Card | 'gone'> = {}) {
  const queries: CardsQuery[] = [];
  const api = {
    listCards: async (q: CardsQuery) => {
      queries.push(q);
      return { cards: lists[q.status ?? 'pending'] ?? [], next: null };
    },
    getCard: async (id: string) => {
      const c = cards[id];
      if (!c || c === 'gone') throw new ApiProblemError({ type: 't', title: 't', status: 404, code: 'not_found', detail: 'd', requestId: 'rid_x' }, 'u');
      return c;
    },
  } as unknown as ApiClient;
  return { api, queries };
}

describe('sync: card model', () => {
  it('groups: pending/you, agent (turn agent or answered), snoozed, delegated, done; unknown status by turn', () => {
    assert.equal(groupOfCard(card('a')), 'pending');
    assert.equal(groupOfCard(card('a', { turn: 'agent' })), 'agent');
    assert.equal(groupOfCard(card('a', { status: 'answered' })), 'agent');
    assert.equal(groupOfCard(card('a', { status: 'snoozed' })), 'snoozed');
    assert.equal(groupOfCard(card('a', { status: 'delegated' })), 'delegated');
    assert.equal(groupOfCard(card('a', { status: 'done' })), 'done');
    assert.equal(groupOfCard(card('a', { status: 'parked', turn: 'you' })), 'pending');
  });

  it('a notice answered with Got it is closing, not waiting on an assistant: Done, out of the live groups', () => {
    assert.equal(groupOfCard(card('a', { kind: 'update', status: 'answered', turn: 'agent' })), 'done');
    const { api } = fakeApi({});
    const m = testCardModel({ api, logger: silentLogger });
    m.setScope({ kind: 'machine' });
    m.upsert(card('req_n', { kind: 'update' }));
    m.upsert(card('req_n', { kind: 'update', status: 'answered', turn: 'agent', version: 2 }));
    assert.deepEqual(m.list('agent').map((c) => c.id), []);
    assert.deepEqual(m.list('pending').map((c) => c.id), []);
    assert.equal(m.counts().waiting, 0);
  });

  it('a full read fills the groups in order; a second read emits only the differences', async () => {
    const lists: Record<string, CardListEntry[]> = {
      pending: [card('req_b'), card('req_a', { turn: 'agent' }), card('req_c', { blocking: true })],
      snoozed: [card('req_s2', { status: 'snoozed', until: '2026-01-02' }), card('req_s1', { status: 'snoozed', until: '2026-01-01' })],
      delegated: [],
    };
    const { api } = fakeApi(lists);
    const m = testCardModel({ api, logger: silentLogger });
    m.setScope({ kind: 'machine' });
    const events: string[] = [];
    m.added((c) => events.push(`+${c.id}`));
    m.changed((e) => events.push(`~${e.card.id}`));
    m.removed((e) => events.push(`-${e.id}`));
    m.countsChanged((c) => events.push(`#${c.waiting}/${c.blockingWaiting}`));
    await m.fullRead();
    assert.deepEqual(m.list('pending').map((c) => c.id), ['req_b', 'req_c']);
    assert.deepEqual(m.list('agent').map((c) => c.id), ['req_a']);
    assert.deepEqual(m.list('snoozed').map((c) => c.id), ['req_s1', 'req_s2'], 'soonest back first');
    assert.deepEqual(['pending', 'agent', 'snoozed', 'delegated', 'done'].map((g) => m.size(g as Group)), [2, 1, 2, 0, 0], 'size counts what list holds');
    assert.equal(m.size('pending', 'agent', 'snoozed'), 5, 'groups together: the sum of their lists');
    assert.equal(events.filter((e) => e.startsWith('+')).length, 5);
    assert.deepEqual(m.counts(), { waiting: 2, blockingWaiting: 1 });
    events.length = 0;
    lists.pending = [card('req_b', { version: 2, turn: 'agent' }), card('req_c', { blocking: true })];
    await m.fullRead();
    assert.deepEqual(events.sort(), ['#1/1', '-req_a', '~req_b'].sort());
    assert.equal(m.groupOf('req_b'), 'agent');
  });

  it('changes refetch by id: new cards are appended, gone ones removed; a whole card is not downgraded by a light list entry', async () => {
    const cards: Record<string, Card | 'gone'> = { req_n: card('req_n', { summary: 'whole' }), req_a: 'gone', req_x: card('req_x') };
    const lists: Record<string, CardListEntry[]> = { pending: [card('req_a'), card('req_x', { whole: false } as Partial<Card>)] };
    const { api } = fakeApi(lists, cards);
    const m = testCardModel({ api, logger: silentLogger });
    m.setScope({ kind: 'machine' });
    await m.fullRead();
    await m.whenWhole();
    await m.applyChanges([{ type: 'card.created', cardId: 'req_n', at: 'x' }, { type: 'card.closed', cardId: 'req_a', at: 'x' }, { type: 'card.created', cardId: 'req_n', at: 'x' }]);
    assert.deepEqual(m.list('pending').map((c) => c.id), ['req_x', 'req_n']);
    cards.req_x = card('req_x', { summary: 'full text' });
    await m.read('req_x');
    await m.fullRead(); // the list still sends the light form of the same version
    assert.equal((m.get('req_x') as Card).summary, 'full text');
  });

  it('workspace scope: filters by assistant on the service (20 ids a request) and drops out-of-scope refetches', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => `con_${i}`);
    const { api, queries } = fakeApi({ pending: [] }, { req_o: card('req_o', { assistant: { id: 'con_other', name: 'o', app: 'codex' } }) });
    const m = testCardModel({ api, logger: silentLogger });
    m.setScope({ kind: 'workspace', assistantIds: ids });
    await m.fullRead();
    const pendingQueries = queries.filter((q) => q.status === 'pending');
    assert.deepEqual(pendingQueries.map((q) => q.assistant?.length), [20, 5, undefined], 'the window\'s assistants, then the notices');
    await m.applyChanges([{ type: 'card.created', cardId: 'req_o', at: 'x' }]);
    assert.equal(m.get('req_o'), undefined);
  });

  it('workspace scope: a card whose assistant is out of scope says so (unknownAsker: the window reads its assistants again); machine scope and notices do not', () => {
    const { api } = fakeApi({});
    const m = testCardModel({ api, logger: silentLogger });
    const told: string[] = [];
    m.unknownAsker((c) => told.push(c.id));
    m.setScope({ kind: 'workspace', assistantIds: ['con_here'] });
    m.upsert(card('req_here', { assistant: { id: 'con_here', name: 'Here', app: 'claude-code' } } as Partial<Card>));
    m.upsert(card('req_new', { assistant: { id: 'con_new', name: 'Claude Code', app: 'claude-code' } } as Partial<Card>));
    m.upsert(card('req_notice', { kind: 'update' }));
    m.upsert(card('req_done', { status: 'done', assistant: { id: 'con_new', name: 'Claude Code', app: 'claude-code' } } as Partial<Card>));
    assert.deepEqual(told, ['req_new']);
    assert.deepEqual(m.list('pending').map((c) => c.id).sort(), ['req_here', 'req_notice']);
    m.setScope({ kind: 'machine' });
    m.upsert(card('req_other', { assistant: { id: 'con_new', name: 'Claude Code', app: 'claude-code' }, machine: { id: 'mch_x', name: 'x' } } as Partial<Card>));
    assert.deepEqual(told, ['req_new']);
  });

  it('workspace scope: notices (kind update, no assistant) are the person\'s and show in every window', async () => {
    const notice = card('req_n', { kind: 'update', assistant: undefined });
    const other = card('req_c', { assistant: { id: 'con_other', name: 'o', app: 'codex' } });
    const { api, queries } = fakeApi({ pending: [notice, other] }, { req_n: notice, req_n2: card('req_n2', { kind: 'update', assistant: undefined }) });
    const m = testCardModel({ api, logger: silentLogger });
    m.setScope({ kind: 'workspace', assistantIds: [] });
    await m.fullRead();
    assert.ok(m.get('req_n'), 'a notice is read with no assistant in this window');
    assert.equal(m.get('req_c'), undefined, 'other assistants\' cards stay out');
    assert.ok(queries.every((q) => q.assistant === undefined && q.whole === 0), 'one unfiltered read of light cards a status');
    await m.applyChanges([{ type: 'card.created', cardId: 'req_n2', at: 'x' }]);
    assert.ok(m.get('req_n2'), 'a notice the feed names is kept');
  });
});

describe('sync: every row whole (rows past the list\'s first `whole` cards)', () => {
  const light = (id: string, o: Partial<Card> = {}): CardListEntry => ({ ...card(id, o), whole: false } as CardListEntry);
  const asker = { assistant: { id: 'con_a', name: 'api', app: 'claude-code' }, machine: { id: 'mch_1', name: 'laptop' } };

  it('light rows are read whole by id, the waiting stack first: asker, computer, severity and count show; not read again while their version holds', async () => {
    const lists: Record<string, CardListEntry[]> = {
      pending: [card('req_1', asker), light('req_2'), light('req_n', { kind: 'update' })],
      snoozed: [light('req_s', { status: 'snoozed' })],
      delegated: [],
    };
    const wholeCards: Record<string, Card> = {
      req_2: card('req_2', asker),
      req_n: card('req_n', { kind: 'update', severity: 'critical', count: 4, from: 'monitor', lastAt: '2026-01-01T00:00:00Z' }),
      req_s: card('req_s', { ...asker, status: 'snoozed', until: '2026-01-02T00:00:00Z' }),
    };
    const reads: string[] = [];
    const api = {
      listCards: async (q: CardsQuery) => ({ cards: lists[q.status ?? 'pending'] ?? [], next: null }),
      getCard: async (id: string) => { reads.push(id); return wholeCards[id]!; },
    } as unknown as ApiClient;
    const m = testCardModel({ api, logger: silentLogger });
    m.setScope({ kind: 'machine' });
    const changed: string[] = [];
    m.changed((e) => changed.push(e.card.id));
    await m.fullRead();
    await m.whenWhole();
    assert.deepEqual(reads, ['req_2', 'req_n', 'req_s'], 'the light rows, waiting stack first; the whole one is not read');
    assert.equal((m.get('req_2') as Card).assistant?.name, 'api');
    assert.equal((m.get('req_2') as Card).machine?.name, 'laptop');
    assert.equal((m.get('req_n') as Card).count, 4);
    assert.equal((m.get('req_n') as Card).severity, 'critical');
    assert.deepEqual(changed.sort(), ['req_2', 'req_n', 'req_s'], 'one row event each, so the tree redraws that row');
    await m.fullRead(); // the periodic read lists the same versions light again
    await m.whenWhole();
    assert.equal(reads.length, 3, 'a card held whole at the listed version costs no read');
    assert.equal((m.get('req_n') as Card).count, 4, 'and stays whole');
    lists.pending = [card('req_1', asker), light('req_2', { version: 2 }), light('req_n', { kind: 'update' })];
    wholeCards.req_2 = card('req_2', { ...asker, version: 2 });
    await m.fullRead();
    await m.whenWhole();
    assert.deepEqual(reads.slice(3), ['req_2'], 'a new version listed light is read whole once');
  });

  it('a light row the service no longer has is removed; a failed read stops the fill and the next full read goes on', async () => {
    let fail = true;
    const reads: string[] = [];
    const api = {
      listCards: async (q: CardsQuery) => ({ cards: q.status === 'pending' ? [light('req_gone'), light('req_b')] : [], next: null }),
      getCard: async (id: string) => {
        reads.push(id);
        if (id === 'req_gone') throw new ApiProblemError({ type: 't', title: 't', status: 404, code: 'not_found', detail: 'd', requestId: 'rid_x' }, 'u');
        if (fail) throw new Error('offline');
        return card(id, asker);
      },
    } as unknown as ApiClient;
    const m = testCardModel({ api, logger: silentLogger });
    m.setScope({ kind: 'machine' });
    await m.fullRead();
    await m.whenWhole();
    assert.equal(m.get('req_gone'), undefined);
    assert.equal((m.get('req_b') as Card).assistant, undefined, 'still light: the read failed');
    fail = false;
    await m.fullRead();
    await m.whenWhole();
    assert.equal((m.get('req_b') as Card).assistant?.name, 'api');
  });

  it('a card the Answers view shows, listed light at a new version, is read once (the fill\'s), and the fill\'s whole card makes its row', async () => {
    const history = (...steps: [string, string][]) => ({ history: steps.map(([type, at]) => ({ type, at })) });
    const put = (version: number, until: string) => card('req_s', { ...asker, status: 'snoozed', version, until, ...history(['asked', '2026-01-01T00:00:00Z'], ['later', `2026-01-01T0${version}:00:00Z`]) });
    let listed: CardListEntry = light('req_s', { status: 'snoozed' });
    let held = put(1, '2026-01-02T00:00:00Z');
    const reads: string[] = [];
    const api = {
      // The model's page lists it past its first three (light); the Answers view's slices of three whole.
      listCards: async (q: CardsQuery) => ({ cards: q.status !== 'snoozed' ? [] : q.limit === 3 ? [held] : [listed], next: null }),
      getCard: async (id: string) => { reads.push(id); return held; },
    } as unknown as ApiClient;
    const m = testCardModel({ api, logger: silentLogger });
    m.setScope({ kind: 'machine' });
    const answers = new AnswersModel({ api, cards: m, logger: silentLogger, beforeRead: async () => undefined, now: () => Date.parse('2026-01-10T00:00:00Z') });
    await answers.loadFirst();
    await m.fullRead();
    await m.whenWhole();
    assert.deepEqual(reads, ['req_s']);
    assert.equal(answers.get('req_s')?.at, '2026-01-01T01:00:00Z', 'the row from the fill\'s whole card');
    // Put off again elsewhere; the feed did not tell this window: the periodic read lists it light.
    listed = light('req_s', { status: 'snoozed', version: 2 });
    held = put(2, '2026-01-03T00:00:00Z');
    await m.fullRead();
    await m.whenWhole();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(reads, ['req_s', 'req_s'], 'one read of the new version, not one for the view and one for the row');
    assert.equal(answers.get('req_s')?.at, '2026-01-01T02:00:00Z', 'the row from the fill\'s read');
    answers.dispose();
  });

  it('each read that fills a row waits on the model\'s gate first (the session\'s budget)', async () => {
    const order: string[] = [];
    const api = {
      listCards: async (q: CardsQuery) => ({ cards: q.status === 'pending' ? [light('req_a'), light('req_b')] : [], next: null }),
      getCard: async (id: string) => { order.push(`read ${id}`); return card(id, asker); },
    } as unknown as ApiClient;
    const m = testCardModel({ api, logger: silentLogger, beforeFillRead: async () => { order.push('gate'); } });
    m.setScope({ kind: 'machine' });
    await m.fullRead();
    await m.whenWhole();
    assert.deepEqual(order, ['gate', 'read req_a', 'gate', 'read req_b']);
  });
});

describe('sync: card model scopes', () => {
  it('everywhere: one unfiltered read; machine with this computer\'s id: its cards by the machine filter, plus the notices', async () => {
    const { api, queries } = fakeApi({ pending: [] });
    const m = testCardModel({ api, logger: silentLogger });
    m.setScope({ kind: 'everywhere' });
    await m.fullRead();
    assert.ok(queries.every((q) => q.machine === undefined && q.assistant === undefined));
    queries.length = 0;
    m.setScope({ kind: 'machine', machineId: 'mch_here' });
    await m.fullRead();
    const pending = queries.filter((q) => q.status === 'pending');
    assert.deepEqual(pending.map((q) => q.machine), [['mch_here'], undefined], 'this computer, then the notices (they have none)');
    const other = card('req_o', { machine: { id: 'mch_other', name: 'desktop' } });
    m.upsert(other);
    assert.equal(m.get('req_o'), undefined, 'a card of another computer is out of the machine scope');
    m.setScope({ kind: 'everywhere' });
    m.upsert(other);
    assert.ok(m.get('req_o'), 'and in the everywhere scope');
  });
});

describe('sync: request budget', () => {
  it('limit classes per route follow the spec and DESIGN', () => {
    assert.deepEqual(classesOf('GET', '/v1/cards', false), ['read', 'person']);
    assert.deepEqual(classesOf('GET', '/v1/changes', true), ['wait', 'person']);
    assert.deepEqual(classesOf('POST', '/v1/cards/req_1/answer', false), ['write', 'answer', 'person']);
    assert.deepEqual(classesOf('POST', '/v1/cards/req_1/messages', false), ['write', 'answer', 'person']);
    assert.deepEqual(classesOf('POST', '/v1/presence', false), ['write', 'person']);
    assert.deepEqual(classesOf('POST', '/oauth/token', false), ['person']);
  });

  it('background work waits once its share of a minute is used, until the window frees', () => {
    let now = 0;
    const b = new RequestBudget({ now: () => now });
    for (let i = 0; i < 3; i++) b.record('GET', '/v1/changes', true);
    assert.equal(b.delayFor(['wait']), 60_000);
    now = 30_000;
    assert.equal(b.delayFor(['wait']), 30_000);
    now = 60_001;
    assert.equal(b.delayFor(['wait']), 0);
    for (let i = 0; i < 119; i++) b.record('GET', '/v1/cards', false);
    assert.equal(b.delayFor(['read']), 0);
    assert.equal(b.backgroundLeft('read'), 1);
    b.record('GET', '/v1/cards', false);
    assert.ok(b.delayFor(['read']) > 0);
    assert.equal(b.backgroundLeft('read'), 0);
    assert.equal(b.totals.read, 120, '40 % of the 300 reads a minute');
  });

  it('a share of the whole minute counts the person\'s reads; keeping room for others counts background ones only', () => {
    let now = 0;
    const b = new RequestBudget({ now: () => now });
    for (let i = 0; i < 149; i++) b.record('GET', '/v1/cards', false, true);
    assert.equal(b.delayUnder('read', 0.5), 0, '149 of 150');
    assert.equal(b.delayKeeping('read', 40), 0, 'the person\'s reads leave the background share alone');
    now = 10_000;
    b.record('GET', '/v1/cards', false, true);
    assert.equal(b.delayUnder('read', 0.5), 50_000, 'until the first of the 150 leaves the minute');
    for (let i = 0; i < 79; i++) b.record('GET', '/v1/cards', false);
    assert.equal(b.delayKeeping('read', 40), 0, '79 background reads of 120, 40 kept');
    now = 20_000;
    b.record('GET', '/v1/cards', false);
    assert.equal(b.delayKeeping('read', 40), 50_000, 'the 80th: until the first background read leaves the minute');
    assert.equal(b.delayFor(['read']), 0, 'the whole background share is not used yet');
  });
});

describe('sync: card model races', () => {
  it('a list read that began before a feed refetch does not undo it', async () => {
    let releaseList!: () => void;
    const listGate = new Promise<void>((r) => (releaseList = r));
    const api = {
      listCards: async (q: CardsQuery) => {
        if (q.status === 'pending') await listGate;
        return { cards: q.status === 'pending' ? [card('req_a', { version: 1 })] : [], next: null };
      },
      getCard: async (id: string) => card(id, { version: id === 'req_a' ? 3 : 1 }),
    } as unknown as ApiClient;
    const m = testCardModel({ api, logger: silentLogger });
    m.setScope({ kind: 'machine' });
    const reading = m.fullRead(); // the list is on its way (old state)
    await m.applyChanges([{ type: 'card.changed', cardId: 'req_a', at: 'x' }, { type: 'card.created', cardId: 'req_new', at: 'x' }]);
    releaseList();
    await reading;
    assert.equal(m.get('req_a')?.version, 3, 'not downgraded to the older list');
    assert.ok(m.get('req_new'), 'not removed for missing from the older list');
  });
});
