// GET /v1/cards query rules: repeated filters (1..20, apps 1..13, machines 1..10), patterns,
// limit, whole, the opaque `after` continuation, the order of each status, 30 days of done.
import assert from 'node:assert/strict';
import { ALL_SCOPES, answer, makeWorld, type World } from '../kit';
import type { SignedIn } from './helpers';

describe('sandbox card queries', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  const ids = (r: { json: { cards: { id: string }[] } }) => r.json.cards.map((c) => c.id);
  const list = (who: SignedIn, q: string) => who.request('GET', `/v1/cards${q}`);
  const invalid = async (q: string, field: string) => {
    const r = await list(w.me, q);
    assert.equal(r.status, 400, `${q}: ${r.text}`);
    assert.equal(r.json.code, 'invalid');
    assert.ok(r.json.errors.some((e: { field: string }) => e.field === field), `${q}: ${r.text}`);
  };

  it('validates every parameter: values, counts, patterns and ranges', async () => {
    const many = (name: string, prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${name}=${prefix}${i}`).join('&');
    await invalid('?status=answered', 'status');
    await invalid('?status=pending&status=done', 'status');
    await invalid('?area=proj_1', 'area');
    await invalid('?area=', 'area');
    await invalid(`?${many('area', 'prj_', 21)}`, 'area');
    await invalid('?assistant=agt_1', 'assistant');
    await invalid(`?${many('assistant', 'con_', 21)}`, 'assistant');
    await invalid('?agent=con_1', 'agent');
    await invalid(`?${many('agent', 'agt_', 21)}`, 'agent');
    await invalid('?app=vim', 'app');
    await invalid(`?${Array.from({ length: 14 }, () => 'app=codex').join('&')}`, 'app');
    await invalid('?machine=host', 'machine');
    await invalid(`?${many('machine', 'mch_', 11)}`, 'machine');
    await invalid('?threadId=abc', 'threadId');
    await invalid('?area=prj_a%20b', 'area');
    for (const v of ['0', '101', 'ten', '1.5', '-1']) await invalid(`?limit=${v}`, 'limit');
    for (const v of ['-1', '4', 'x']) await invalid(`?whole=${v}`, 'whole');
    await invalid(`?after=${'x'.repeat(201)}`, 'after');
    await invalid('?after=bm90LWEtY3Vyc29y', 'after');
    await invalid('?colour=blue', 'colour');
    // the edges that pass
    for (const q of [
      `?${many('area', 'prj_', 20)}`, `?${many('assistant', 'con_', 20)}`, `?${many('agent', 'agt_', 20)}`,
      `?${many('machine', 'mch_', 10)}`, '?app=claude-code&app=codex&app=cursor&app=gemini-cli&app=opencode&app=pi&app=grok&app=muse&app=chatgpt&app=claude&app=dots&app=other&app=webhook',
      '?limit=1', '?limit=100', '?whole=0', '?whole=3', '?status=pending', '?status=snoozed', '?status=delegated', '?status=done',
      '?threadId=req_abc-1', '?area=prj_a-b',
    ]) {
      const r = await list(w.me, q);
      assert.equal(r.status, 200, `${q}: ${r.text}`);
    }
  });

  it('filters by area, assistant, agent, app, machine and threadId (values of one filter are OR, filters AND)', async () => {
    const other = (await w.ctl('POST', '/_sandbox/agents', { assistantId: w.assistantId, name: 'second' })).json;
    const helperAgent = w.helperAgentId;
    const a = await w.card({ area: { id: 'prj_api', name: 'API' } });
    const b = await w.card({ area: { id: 'prj_web', name: 'Web' }, agentId: other.id });
    const c = await w.card({ agentId: helperAgent, threadId: a.id });
    assert.deepEqual(ids(await list(w.me, '?area=prj_api')), [a.id]);
    assert.deepEqual(ids(await list(w.me, '?area=prj_api&area=prj_web')), [a.id, b.id]);
    assert.deepEqual(ids(await list(w.me, `?assistant=${w.assistantId}`)), [a.id, b.id]);
    assert.deepEqual(ids(await list(w.me, `?assistant=${w.helperId}`)), [c.id]);
    assert.deepEqual(ids(await list(w.me, `?agent=${other.id}`)), [b.id]);
    assert.deepEqual(ids(await list(w.me, '?app=codex')), [c.id]);
    assert.deepEqual(ids(await list(w.me, '?app=codex&app=claude-code')), [a.id, b.id, c.id]);
    assert.deepEqual(ids(await list(w.me, `?machine=${w.machine.id}`)), [a.id, b.id, c.id]);
    assert.deepEqual(ids(await list(w.me, '?machine=mch_other')), []);
    assert.deepEqual(ids(await list(w.me, `?threadId=${a.id}`)), [a.id, c.id]);
    assert.deepEqual(ids(await list(w.me, `?area=prj_web&assistant=${w.helperId}`)), []);
  });

  it('pending: the stack order, including answers waiting on the assistant; limit and after page through it', async () => {
    const made = [];
    for (let i = 0; i < 7; i++) made.push((await w.card({ title: `c${i}` })).id);
    await answer(w.me, made[2]!, { version: 1, choiceIds: ['a'] });
    const all = await list(w.me, '');
    assert.deepEqual(ids(all), made);
    assert.equal(all.json.cards[2].status, 'answered');
    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const r = await list(w.me, `?limit=3${next ? `&after=${encodeURIComponent(next)}` : ''}`);
      assert.equal(r.status, 200, r.text);
      seen.push(...ids(r));
      next = r.json.next;
      pages++;
    } while (next);
    assert.equal(pages, 3);
    assert.deepEqual(seen, made);
    // a continuation belongs to its query
    const first = await list(w.me, '?limit=2');
    const r = await list(w.me, `?status=snoozed&after=${encodeURIComponent(first.json.next)}`);
    assert.equal(r.status, 400);
    assert.equal(r.json.errors[0].field, 'after');
    // a card closed between pages is not repeated nor skipping others
    await w.ctl('POST', `/_sandbox/cards/${made[1]}/withdraw`);
    const second = await list(w.me, `?limit=2&after=${encodeURIComponent(first.json.next)}`);
    assert.deepEqual(ids(second), [made[2], made[3]]);
  });

  it('snoozed: soonest back first', async () => {
    const a = await w.card();
    const b = await w.card();
    const c = await w.card();
    const at = (h: number) => new Date(w.sb.clock.now() + h * 3_600_000).toISOString();
    await w.me.request('POST', `/v1/cards/${a.id}/later`, { body: { until: at(5) } });
    await w.me.request('POST', `/v1/cards/${b.id}/later`, { body: { until: at(1) } });
    await w.me.request('POST', `/v1/cards/${c.id}/later`, { body: { until: at(3) } });
    assert.deepEqual(ids(await list(w.me, '?status=snoozed')), [b.id, c.id, a.id]);
    assert.deepEqual(ids(await list(w.me, '')), []);
  });

  it('delegated: the cards with a helper, handed over first, first', async () => {
    const a = await w.card();
    const b = await w.card();
    await w.me.request('POST', `/v1/cards/${b.id}/delegate`, { body: { to: { assistantId: w.helperId }, mode: 'freely' } });
    await w.advance(1000);
    await w.me.request('POST', `/v1/cards/${a.id}/delegate`, { body: { to: { assistantId: w.helperId }, mode: 'loop' } });
    assert.deepEqual(ids(await list(w.me, '?status=delegated')), [b.id, a.id]);
  });

  it('done: newest first, the last 30 days only', async () => {
    const a = await w.card();
    const b = await w.card();
    await w.ctl('POST', `/_sandbox/cards/${a.id}/withdraw`);
    await w.advance(24 * 3_600_000);
    await w.ctl('POST', `/_sandbox/cards/${b.id}/withdraw`);
    assert.deepEqual(ids(await list(w.me, '?status=done')), [b.id, a.id]);
    await w.advance(29 * 24 * 3_600_000);
    assert.deepEqual(ids(await list(w.me, '?status=done')), [b.id, a.id], 'exactly 30 days still listed');
    await w.advance(1);
    assert.deepEqual(ids(await list(w.me, '?status=done')), [b.id]);
    await w.advance(24 * 3_600_000);
    assert.deepEqual(ids(await list(w.me, '?status=done')), []);
  });

  it('the default limit is 50 and the maximum 100', async () => {
    for (let i = 0; i < 105; i++) await w.card({ title: `n${i}` });
    const dflt = await list(w.me, '');
    assert.equal(dflt.json.cards.length, 50);
    assert.ok(dflt.json.next);
    const max = await list(w.me, '?limit=100');
    assert.equal(max.json.cards.length, 100);
    const rest = await list(w.me, `?limit=100&after=${encodeURIComponent(max.json.next)}`);
    assert.equal(rest.json.cards.length, 5);
    assert.equal(rest.json.next, null);
  });

  it('machine reach applies to every status and filter', async () => {
    const far = (await w.ctl('POST', '/_sandbox/machines', { name: 'desktop' })).json;
    const farAssistant = (await w.ctl('POST', '/_sandbox/assistants', { name: 'far', app: 'cursor', machineId: far.id })).json;
    const farAgent = (await w.ctl('POST', '/_sandbox/agents', { assistantId: farAssistant.id, name: 'main' })).json;
    const away = await w.card({ agentId: farAgent.id });
    await w.ctl('POST', `/_sandbox/cards/${away.id}/withdraw`);
    assert.deepEqual(ids(await list(w.me, `?status=done&machine=${far.id}`)), []);
    const there = await w.signIn({ machine: far, scopes: ALL_SCOPES });
    assert.deepEqual(ids(await list(there, '?status=done')), [away.id]);
  });
});
