// POST /_sandbox/seed/done (decisions.md "Seeding done cards"), the `answer` a whole card carries
// once answered, and the person's name on /v1/me: what the Answers view reads.
import assert from 'node:assert/strict';
import { answer, makeWorld, type World } from '../kit';

describe('sandbox: done cards seeded, answers on the card, the person on /v1/me', () => {
  let w: World;
  beforeEach(async () => { w = await makeWorld(); });
  afterEach(async () => { await w.close(); });

  it('seeds 1,000 done cards over 30 days: newest first, in reach of this computer, every history ending in a close', async () => {
    const started = Date.now();
    const r = await w.ctl('POST', '/_sandbox/seed/done', { count: 1000, days: 30, machineId: w.machine.id });
    assert.equal(r.status, 200, r.text);
    assert.ok(Date.now() - started < 2000, 'seeding is quick');
    assert.equal(r.json.computers.length, 3);
    assert.equal(r.json.helpers.length, 2);
    assert.match(r.json.webhook.id, /^whk_/);
    let after: string | undefined;
    const seen: { id: string; closed: number }[] = [];
    for (let page = 0; page < 20; page++) {
      const q = `/v1/cards?status=done&limit=100&whole=3${after ? `&after=${after}` : ''}`;
      const list = await w.me.request('GET', q);
      assert.equal(list.status, 200, list.text);
      for (const c of list.json.cards) seen.push({ id: c.id, closed: 0 });
      after = list.json.next ?? undefined;
      if (!after) break;
    }
    assert.equal(seen.length, 1000);
    const first = await w.me.request('GET', `/v1/cards/${seen[0]!.id}`);
    const last = await w.me.request('GET', `/v1/cards/${seen[999]!.id}`);
    assert.ok(Date.parse(first.json.card.changedAt) > Date.parse(last.json.card.changedAt), 'newest first');
    assert.ok(w.sb.clock.now() - Date.parse(last.json.card.changedAt) < 30 * 86_400_000);
    const byKinds = new Set<string>();
    for (const s of seen.slice(0, 10)) {
      const c = (await w.me.request('GET', `/v1/cards/${s.id}`)).json.card;
      const closing = c.history[c.history.length - 1];
      byKinds.add(`${closing.type}:${closing.by}`);
      const answered = c.history.filter((h: { type: string }) => h.type === 'answered').pop();
      if (answered) {
        assert.ok(answered.appName, 'the person\'s answer names its app');
        assert.ok(Array.isArray(c.answer.choiceIds) && c.answer.version === undefined, 'what was answered, without version');
      }
    }
    for (const k of ['picked-up:assistant', 'helper-answered:helper', 'resolved:webhook', 'withdrawn:assistant']) assert.ok(byKinds.has(k), k);
    for (const bad of [{}, { count: 0, machineId: w.machine.id }, { count: 1, days: 31, machineId: w.machine.id }, { count: 1, machineId: 'mch_none' }]) {
      assert.equal((await w.ctl('POST', '/_sandbox/seed/done', bad)).status, 400, JSON.stringify(bad));
    }
  });

  it('a whole card carries what was answered (no version) once answered; undone, it carries none', async () => {
    const c = await w.card();
    const a = await answer(w.me, c.id, { version: c.version, choiceIds: ['b'], note: { text: 'n' } });
    assert.equal(a.status, 200, a.text);
    const read = (await w.me.request('GET', `/v1/cards/${c.id}`)).json.card;
    assert.deepEqual(read.answer, { choiceIds: ['b'], note: { text: 'n' } });
    const u = await w.me.request('POST', `/v1/cards/${c.id}/undo`, { body: {} });
    assert.equal(u.status, 200, u.text);
    assert.equal((await w.me.request('GET', `/v1/cards/${c.id}`)).json.card.answer, undefined);
  });

  it('/v1/me names the person', async () => {
    const me = await w.me.request('GET', '/v1/me');
    assert.equal(me.json.user.name, 'Sandbox Person');
    assert.equal(me.json.user.email, 'person@sandbox.test');
  });
});
