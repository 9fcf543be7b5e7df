// Reads of the Person API: the card list and one card, whole and lighter forms, assistants, reach,
// ETag/If-None-Match, Service-Version and DPoP-Nonce on every answer.
import assert from 'node:assert/strict';
import { call } from './helpers';
import { ALL_SCOPES, answer, makeWorld, type World } from '../kit';

describe('sandbox reads', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('GET /v1/cards: the first `whole` cards whole, the rest light; GET /v1/cards/{id} whole', async () => {
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await w.card({ title: `card ${i}`, summary: 's', urgency: 'now', blocking: i === 0 })).id);
    const r = await w.me.request('GET', '/v1/cards?whole=2');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.cards.map((c: { id: string }) => c.id), ids);
    assert.equal(r.json.next, null);
    const [a, b, c] = r.json.cards;
    for (const whole of [a, b]) {
      assert.equal(whole.whole, undefined);
      assert.equal(whole.summary, 's');
      assert.deepEqual(whole.options, [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }]);
      assert.equal(whole.assistant.id, w.assistantId);
      assert.equal(whole.agent.id, w.agentId);
      assert.deepEqual(whole.machine, { id: w.machine.id, name: 'laptop' });
      assert.ok(whole.createdAt && whole.changedAt && whole.url);
    }
    assert.deepEqual(Object.keys(c).sort(), ['blocking', 'highStakes', 'id', 'kind', 'status', 'threadId', 'title', 'turn', 'urgency', 'version', 'whole'].sort());
    assert.equal(c.whole, false);
    const zero = await w.me.request('GET', '/v1/cards?whole=0');
    assert.ok(zero.json.cards.every((x: { whole: boolean }) => x.whole === false));
    const dflt = await w.me.request('GET', '/v1/cards');
    assert.equal(dflt.json.cards[0].whole, undefined);
    assert.equal(dflt.json.cards[1].whole, false);
    const one = await w.me.request('GET', `/v1/cards/${ids[3]}`);
    assert.equal(one.json.card.id, ids[3]);
    assert.equal(one.json.card.threadId, ids[3]);
    assert.equal(one.json.card.status, 'pending');
    assert.equal(one.json.card.turn, 'you');
    assert.ok(Array.isArray(one.json.card.history));
  });

  it('every /v1 answer carries Service-Version and DPoP-Nonce, refusals too', async () => {
    const ok = await w.me.request('GET', '/v1/cards');
    const missing = await w.me.request('GET', '/v1/cards/req_nothing');
    const unauth = await call('GET', `${w.url}/v1/cards`);
    const unknownRoute = await w.me.request('GET', '/v1/nothing-here');
    for (const r of [ok, missing, unauth, unknownRoute]) {
      assert.equal(r.headers.get('service-version'), '2026-10-05');
      assert.ok(r.headers.get('dpop-nonce'));
    }
    assert.equal(unauth.status, 401);
    assert.match(unauth.headers.get('www-authenticate') ?? '', /DPoP/);
    assert.equal(unknownRoute.status, 404);
    assert.equal(unknownRoute.json.code, 'not_found');
  });

  it('Service-Version: the known date is followed; an unknown date is 400 invalid', async () => {
    const ok = await w.me.request('GET', '/v1/cards', { headers: { 'service-version': '2026-10-05' } });
    assert.equal(ok.status, 200);
    const bad = await w.me.request('GET', '/v1/cards', { headers: { 'service-version': '2025-01-01' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'invalid');
    assert.equal(bad.json.errors[0].field, 'Service-Version');
    assert.equal(bad.headers.get('service-version'), '2026-10-05');
    const c = await w.card();
    const badWrite = await w.me.request('POST', `/v1/cards/${c.id}/back`, { headers: { 'service-version': 'yesterday' } });
    assert.equal(badWrite.json.code, 'invalid');
  });

  it('problem answers have type, title, status, code, detail and a rid_ request id', async () => {
    const r = await w.me.request('GET', '/v1/cards/req_nothing');
    assert.equal(r.status, 404);
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(r.json.type, `${w.url}/docs/api/errors#not_found`);
    assert.equal(r.json.status, 404);
    assert.ok(r.json.title && r.json.detail);
    assert.match(r.json.requestId, /^rid_/);
  });

  it('ETag and If-None-Match: 304 while unchanged, 200 with a new ETag after a change', async () => {
    const c = await w.card();
    for (const path of ['/v1/cards', `/v1/cards/${c.id}`, '/v1/assistants', '/v1/changes?after=' + (await w.me.request('GET', '/v1/changes')).json.cursor]) {
      const first = await w.me.request('GET', path);
      const etag = first.headers.get('etag');
      assert.ok(etag, path);
      const second = await w.me.request('GET', path, { headers: { 'if-none-match': etag! } });
      assert.equal(second.status, 304, path);
      assert.equal(second.text, '');
      assert.equal(second.headers.get('service-version'), '2026-10-05');
      const other = await w.me.request('GET', path, { headers: { 'if-none-match': '"something-else"' } });
      assert.equal(other.status, 200);
    }
    const before = await w.me.request('GET', `/v1/cards/${c.id}`);
    await w.me.request('POST', `/v1/cards/${c.id}/later`, { body: { until: '1h' } });
    const after = await w.me.request('GET', `/v1/cards/${c.id}`, { headers: { 'if-none-match': before.headers.get('etag')! } });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
  });

  it('reach: a machine sign-in sees only cards of assistants on its computer; cards:read:all sees all', async () => {
    const far = (await w.ctl('POST', '/_sandbox/machines', { name: 'desktop' })).json;
    const farAssistant = (await w.ctl('POST', '/_sandbox/assistants', { name: 'far', app: 'cursor', machineId: far.id })).json;
    const farAgent = (await w.ctl('POST', '/_sandbox/agents', { assistantId: farAssistant.id, name: 'main' })).json;
    const near = await w.card();
    const away = await w.card({ agentId: farAgent.id });
    const mine = await w.me.request('GET', '/v1/cards');
    assert.deepEqual(mine.json.cards.map((c: { id: string }) => c.id), [near.id]);
    assert.equal((await w.me.request('GET', `/v1/cards/${away.id}`)).status, 404);
    const assistants = await w.me.request('GET', '/v1/assistants');
    assert.ok(!assistants.json.assistants.some((a: { id: string }) => a.id === farAssistant.id));
    // the same person signed in on the far computer sees the far card only
    const there = await w.signIn({ machine: far, scopes: ALL_SCOPES });
    const theirs = await there.request('GET', '/v1/cards');
    assert.deepEqual(theirs.json.cards.map((c: { id: string }) => c.id), [away.id]);
    // an answer from there is recorded with that computer
    await answer(there, away.id, { version: away.version, choiceIds: ['a'] });
    const got = await w.ctl('GET', `/_sandbox/cards/${away.id}`);
    assert.equal(got.json.answeredFrom.machine.id, far.id);
  });

  it('GET /v1/assistants: agents, live sessions with their terminal, live first, openCards', async () => {
    const quiet = (await w.ctl('POST', '/_sandbox/assistants', { name: 'aaa-quiet', app: 'opencode', machineId: w.machine.id })).json;
    await w.ctl('POST', '/_sandbox/agents', { assistantId: quiet.id, name: 'idle' });
    const s = await w.ctl('POST', '/_sandbox/sessions', { agentId: w.agentId, appSessionId: 'sess-1', cwd: '/home/dev/api', terminal: { pid: 4242, tty: '/dev/pts/3', program: 'vscode' } });
    assert.equal(s.status, 200, s.text);
    await w.card();
    await w.card();
    const r = await w.me.request('GET', '/v1/assistants');
    assert.equal(r.status, 200, r.text);
    const list = r.json.assistants;
    assert.equal(list[0].id, w.assistantId, 'live first, though its name sorts later');
    const api = list[0];
    assert.equal(api.app, 'claude-code');
    assert.equal(api.appName, 'Claude Code');
    assert.equal(api.hears, 'while-working');
    assert.deepEqual(api.machine, { id: w.machine.id, name: 'laptop' });
    const agent = api.agents[0];
    assert.equal(agent.state, 'live');
    assert.equal(agent.openCards, 2);
    assert.deepEqual(agent.liveSessions, [{ appSessionId: 'sess-1', cwd: '/home/dev/api', liveAt: agent.liveAt, terminal: { pid: 4242, tty: '/dev/pts/3', program: 'vscode' } }]);
    assert.equal(list.find((a: { id: string }) => a.id === quiet.id).agents[0].state, 'quiet');
    await w.ctl('DELETE', '/_sandbox/sessions/sess-1');
    const after = await w.me.request('GET', '/v1/assistants');
    const agentAfter = after.json.assistants.find((a: { id: string }) => a.id === w.assistantId).agents[0];
    assert.equal(agentAfter.state, 'recent');
    assert.deepEqual(agentAfter.liveSessions, []);
    assert.equal((await w.me.request('GET', '/v1/assistants?x=1')).json.code, 'invalid');
  });

  it('scopes: cards:read for cards, assistants:read for assistants, presence:desk for presence', async () => {
    const reader = await w.signIn({ machine: w.machine, scopes: ['cards:read'] });
    assert.equal((await reader.request('GET', '/v1/cards')).status, 200);
    for (const [method, path, body] of [['GET', '/v1/assistants', undefined], ['POST', '/v1/presence', { here: true }]] as const) {
      const r = await reader.request(method, path, body ? { body } : {});
      assert.equal(r.status, 403, path);
      assert.equal(r.json.error, 'insufficient_scope');
    }
    const presenceOnly = await w.signIn({ machine: w.machine, scopes: ['presence:desk'] });
    const r = await presenceOnly.request('GET', '/v1/cards');
    assert.equal(r.status, 403);
    assert.match(r.headers.get('www-authenticate') ?? '', /insufficient_scope/);
  });

  it('presence: here true lasts 75 s, here false ends it; the sandbox records each ping', async () => {
    const p = await w.me.request('POST', '/v1/presence', { body: { here: true } });
    assert.equal(p.status, 204);
    assert.equal(p.text, '');
    let seen = (await w.ctl('GET', '/_sandbox/presence')).json;
    assert.equal(seen.here, true);
    assert.equal(seen.lastPings.length, 1);
    assert.equal(seen.lastPings[0].here, true);
    assert.equal(seen.lastPings[0].machineId, w.machine.id);
    await w.advance(74_999);
    assert.equal((await w.ctl('GET', '/_sandbox/presence')).json.here, true);
    await w.advance(1);
    assert.equal((await w.ctl('GET', '/_sandbox/presence')).json.here, false);
    await w.me.request('POST', '/v1/presence', { body: { here: true } });
    await w.me.request('POST', '/v1/presence', { body: { here: false } });
    seen = (await w.ctl('GET', '/_sandbox/presence')).json;
    assert.equal(seen.here, false);
    assert.deepEqual(seen.lastPings.map((x: { here: boolean }) => x.here), [true, true, false]);
    for (const body of [{}, { here: 'yes' }, [true]]) {
      const r = await w.me.request('POST', '/v1/presence', { body });
      assert.equal(r.status, 400);
      assert.equal(r.json.code, 'invalid');
    }
  });

  it('a body that is not JSON is invalid', async () => {
    const c = await w.card();
    const proofed = await w.me.request('POST', `/v1/cards/${c.id}/later`, { body: undefined, headers: { 'content-type': 'application/json' } });
    assert.equal(proofed.status, 400);
    const r = await fetch(`${w.url}/v1/cards/${c.id}/later`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    assert.equal(r.status, 400);
  });
});
