// Every row of person-api.md's state table, DESIGN's lifecycle, and the problem codes of each
// card action, against the sandbox on a manual clock with a real sign-in.
import assert from 'node:assert/strict';
import { answer, key, makeWorld, ALL_SCOPES, type World } from '../kit';
import type { Answer, SignedIn } from './helpers';

describe('sandbox lifecycle', function () {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  const get = async (id: string) => {
    const r = await w.me.request('GET', `/v1/cards/${id}`);
    assert.equal(r.status, 200, r.text);
    return r.json.card;
  };
  const heard = async (id: string) => (await w.ctl('GET', `/_sandbox/cards/${id}/heard`)).json.heard as { type: string; body: unknown; at: string }[];
  const changesOf = async (id: string) =>
    ((await w.ctl('GET', '/_sandbox/changes')).json.changes as { type: string; cardId: string }[]).filter((c) => c.cardId === id).map((c) => c.type);
  const post = (who: SignedIn, id: string, action: string, body?: unknown, headers: Record<string, string> = {}) =>
    who.request('POST', `/v1/cards/${id}/${action}`, { ...(body !== undefined ? { body } : {}), headers });
  const problem = (r: Answer, status: number, code: string) => {
    assert.equal(r.status, status, r.text);
    assert.equal(r.json.code, code, r.text);
    assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
  };

  async function otherApp(): Promise<SignedIn> {
    const reg = await w.ctl('POST', '/_sandbox/apps', { name: 'Other app', verified: true, scopes: ALL_SCOPES, redirectUris: [] });
    assert.equal(reg.status, 201, reg.text);
    return w.signIn({ machine: w.machine, clientId: reg.json.clientId, scopes: ALL_SCOPES });
  }

  describe('answer (pending -> answered)', () => {
    it('raises the version, holds 5 s with undoUntil, then the assistant hears it once', async () => {
      const c = await w.card();
      const r = await answer(w.me, c.id, { version: c.version, choiceIds: ['b'], note: { text: 'because' }, via: 'voice' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.status, 'answered');
      assert.equal(r.json.version, c.version + 1);
      assert.equal(Date.parse(r.json.undoUntil), w.sb.clock.now() + 5000);
      await w.advance(4999);
      assert.deepEqual(await heard(c.id), []);
      await w.advance(1);
      const h = await heard(c.id);
      assert.equal(h.length, 1);
      assert.equal(h[0]!.type, 'answer');
      assert.deepEqual(h[0]!.body, { version: c.version, choiceIds: ['b'], note: { text: 'because' }, via: 'voice' });
      assert.equal(Date.parse(h[0]!.at), Date.parse(r.json.undoUntil));
      await w.advance(60_000);
      assert.equal((await heard(c.id)).length, 1);
      // The hold's end is a change of its own (#53): the version rises once, and the feed says so.
      assert.equal((await get(c.id)).version, r.json.version + 1);
      assert.deepEqual(await changesOf(c.id), ['card.created', 'card.answered', 'card.changed']);
    });

    it('records the app and computer it came from on the card and in its history', async () => {
      const c = await w.card();
      await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] });
      const card = await get(c.id);
      assert.equal(card.status, 'answered');
      assert.equal(card.turn, 'agent');
      assert.match(card.answeredFrom.app, /Assistant Cards/);
      assert.deepEqual(card.answeredFrom.machine, { id: w.machine.id, name: 'laptop' });
      const entry = card.history.find((h: { type: string }) => h.type === 'answered');
      assert.equal(entry.by, 'person');
      assert.equal(entry.machine.id, w.machine.id);
      assert.ok(entry.appName);
      const h = (await w.ctl('GET', `/_sandbox/cards/${c.id}/heard`));
      await w.advance(5000);
      assert.equal((await heard(c.id))[0] && h.status, 200);
      const from = ((await w.ctl('GET', `/_sandbox/cards/${c.id}/heard`)).json.heard[0]).from;
      assert.equal(from.machine.id, w.machine.id);
    });

    it('takes each kind\'s answer form', async () => {
      const cases: [Record<string, unknown>, Record<string, unknown>][] = [
        [{ kind: 'approval', options: undefined }, { approved: false }],
        [{ kind: 'text' }, { text: 'call it v2' }],
        [{ kind: 'questions', asks: [{ id: 'q1', title: 'One', options: [{ id: 'x', label: 'X' }] }, { id: 'q2', title: 'Two' }] }, { answers: { q1: 'x', q2: 'free words' } }],
        [{ kind: 'failure', steps: [{ title: 'a' }, { title: 'b' }] }, { failedStep: 1, text: 'retry it' }],
        [{ kind: 'choice', multi: true }, { choiceIds: ['a', 'b'] }],
        [{ kind: 'choice' }, { theyDecide: true }],
        [{ kind: 'some-new-kind' }, { text: 'anything' }],
      ];
      for (const [fields, body] of cases) {
        const c = await w.card(fields);
        const r = await answer(w.me, c.id, { version: c.version, ...body });
        assert.equal(r.status, 200, `${JSON.stringify(fields)}: ${r.text}`);
      }
    });

    it('refuses answers that do not fit: invalid with errors[{field, reason}]', async () => {
      const c = await w.card({ kind: 'choice' });
      const bad: Record<string, unknown>[] = [
        {},
        { version: 'one', choiceIds: ['a'] },
        { version: c.version },
        { version: c.version, choiceIds: ['zzz'] },
        { version: c.version, choiceIds: ['a', 'b'] },
        { version: c.version, approved: true },
        { version: c.version, text: 'x'.repeat(10_001) },
        { version: c.version, choiceIds: ['a'], note: { text: 'y'.repeat(10_001) } },
        { version: c.version, choiceIds: ['a'], note: 'plain' },
        { version: c.version, theyDecide: false },
        { version: c.version, choiceIds: ['a'], via: 'pigeon' },
        { version: c.version, answers: { nope: 'x' } },
        { version: c.version, failedStep: 0 },
      ];
      for (const body of bad) {
        const r = await answer(w.me, c.id, body);
        problem(r, 400, 'invalid');
        assert.ok(Array.isArray(r.json.errors) && r.json.errors.length > 0, JSON.stringify(body));
        for (const e of r.json.errors) assert.ok(typeof e.field === 'string' && typeof e.reason === 'string');
      }
      const ok = await answer(w.me, c.id, { version: c.version, text: 'x'.repeat(10_000) });
      assert.equal(ok.status, 200, ok.text);
    });

    it('needs an Idempotency-Key', async () => {
      const c = await w.card();
      const r = await post(w.me, c.id, 'answer', { version: c.version, choiceIds: ['a'] });
      problem(r, 400, 'invalid');
      assert.equal(r.json.errors[0].field, 'Idempotency-Key');
    });

    it('version_conflict when the card changed since the version named; nothing is sent', async () => {
      const c = await w.card();
      await post(w.me, c.id, 'later', { until: '1h' });
      await post(w.me, c.id, 'back');
      const r = await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] });
      problem(r, 409, 'version_conflict');
      await w.advance(10_000);
      assert.deepEqual(await heard(c.id), []);
    });

    it('area_change when the card moved to another area after the version named', async () => {
      const c = await w.card({ area: { id: 'prj_one', name: 'One' } });
      const moved = await w.ctl('POST', `/_sandbox/cards/${c.id}/area`, { id: 'prj_two', name: 'Two' });
      assert.equal(moved.status, 200);
      problem(await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] }), 403, 'area_change');
      const ok = await answer(w.me, c.id, { version: moved.json.version, choiceIds: ['a'] });
      assert.equal(ok.status, 200, ok.text);
    });

    it('not_available for one ask at a time (askId)', async () => {
      const c = await w.card({ kind: 'questions', asks: [{ id: 'q1', title: 'One' }] });
      problem(await answer(w.me, c.id, { version: c.version, askId: 'q1', text: 'x' }), 501, 'not_available');
    });

    it('not_waiting on an answered or done card', async () => {
      const c = await w.card();
      const r = await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] });
      problem(await answer(w.me, c.id, { version: r.json.version, choiceIds: ['a'] }), 409, 'not_waiting');
      await w.advance(5000);
      await w.ctl('POST', `/_sandbox/cards/${c.id}/pickup`);
      const done = await get(c.id);
      problem(await answer(w.me, c.id, { version: done.version, choiceIds: ['a'] }), 409, 'not_waiting');
    });

    it('needs the cards:answer scope (OAuth insufficient_scope)', async () => {
      const reader = await w.signIn({ machine: w.machine, scopes: ['cards:read'] });
      const c = await w.card();
      const r = await answer(reader, c.id, { version: c.version, choiceIds: ['a'] });
      assert.equal(r.status, 403);
      assert.equal(r.json.error, 'insufficient_scope');
      assert.match(r.headers.get('www-authenticate') ?? '', /cards:answer/);
    });
  });

  describe('undo (answered -> pending)', () => {
    it('within 5 s by the answering app: pending again, version rises, never heard', async () => {
      const c = await w.card();
      const a = await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] });
      await w.advance(4000);
      const u = await post(w.me, c.id, 'undo');
      assert.equal(u.status, 200, u.text);
      assert.deepEqual(u.json, { id: c.id, status: 'pending', version: a.json.version + 1 });
      await w.advance(60_000);
      assert.deepEqual(await heard(c.id), []);
      const card = await get(c.id);
      assert.equal(card.status, 'pending');
      assert.equal(card.turn, 'you');
      assert.equal(card.answeredFrom, undefined);
      assert.deepEqual(await changesOf(c.id), ['card.created', 'card.answered', 'card.changed']);
    });

    it('hold_over once the 5 s passed', async () => {
      const c = await w.card();
      await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] });
      await w.advance(5000);
      problem(await post(w.me, c.id, 'undo'), 409, 'hold_over');
    });

    it('not_your_answer from another app', async () => {
      const other = await otherApp();
      const c = await w.card();
      await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] });
      problem(await post(other, c.id, 'undo'), 403, 'not_your_answer');
    });

    it('not_waiting when there is no answer to undo', async () => {
      const c = await w.card();
      problem(await post(w.me, c.id, 'undo'), 409, 'not_waiting');
    });

    it('an optional body must be an object', async () => {
      const c = await w.card();
      await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] });
      problem(await post(w.me, c.id, 'undo', [1, 2]), 400, 'invalid');
      assert.equal((await post(w.me, c.id, 'undo', {})).status, 200);
    });
  });

  describe('pickup (DESIGN: answered -> done with card.closed)', () => {
    it('the assistant picks up a heard answer: done, closed, listed in done', async () => {
      const c = await w.card();
      await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] });
      assert.equal((await w.ctl('POST', `/_sandbox/cards/${c.id}/pickup`)).status, 409, 'not before the hold ends');
      await w.advance(5000);
      const p = await w.ctl('POST', `/_sandbox/cards/${c.id}/pickup`);
      assert.equal(p.status, 200, p.text);
      assert.equal(p.json.status, 'done');
      assert.deepEqual(await changesOf(c.id), ['card.created', 'card.answered', 'card.changed', 'card.closed']);
      const done = await w.me.request('GET', '/v1/cards?status=done');
      assert.deepEqual(done.json.cards.map((x: { id: string }) => x.id), [c.id]);
    });

    it('withdraw closes a waiting card', async () => {
      const c = await w.card();
      const r = await w.ctl('POST', `/_sandbox/cards/${c.id}/withdraw`);
      assert.equal(r.json.status, 'done');
      assert.equal(r.json.closedBy, 'withdrawn');
      assert.deepEqual(await changesOf(c.id), ['card.created', 'card.closed']);
    });
  });

  describe('messages (pending: turn becomes agent)', () => {
    it('returns messageId, the assistant hears the words at once, card.changed', async () => {
      const c = await w.card();
      const r = await post(w.me, c.id, 'messages', { body: 'use the other port', via: 'text' });
      assert.equal(r.status, 200, r.text);
      assert.match(r.json.messageId, /^msg_[A-Za-z0-9-]+$/);
      assert.equal(r.json.turn, 'agent');
      assert.equal(r.json.version, c.version + 1);
      const h = await heard(c.id);
      assert.equal(h[0]!.type, 'message');
      assert.deepEqual(h[0]!.body, { body: 'use the other port', via: 'text' });
      const card = await get(c.id);
      assert.equal(card.status, 'pending');
      assert.equal(card.turn, 'agent');
      assert.deepEqual(await changesOf(c.id), ['card.created', 'card.changed']);
      problem(await post(w.me, c.id, 'messages', { body: 'again' }), 409, 'not_waiting');
      assert.equal((await w.ctl('POST', `/_sandbox/cards/${c.id}/pickup`)).json.status, 'done');
    });

    it('invalid bodies', async () => {
      const c = await w.card();
      for (const body of [{}, { body: '' }, { body: 5 }, { body: 'x'.repeat(10_001) }, { body: 'x', via: 'fax' }]) {
        problem(await post(w.me, c.id, 'messages', body), 400, 'invalid');
      }
    });

    it('needs cards:reply', async () => {
      const reader = await w.signIn({ machine: w.machine, scopes: ['cards:read', 'cards:answer'] });
      const c = await w.card();
      const r = await post(reader, c.id, 'messages', { body: 'hi' });
      assert.equal(r.status, 403);
      assert.equal(r.json.error, 'insufficient_scope');
    });
  });

  describe('later and back (pending <-> snoozed)', () => {
    it('snoozes until a datetime and returns at until with card.changed, in its place', async () => {
      const first = await w.card({ title: 'first' });
      const second = await w.card({ title: 'second' });
      const until = new Date(w.sb.clock.now() + 2 * 3_600_000).toISOString();
      const r = await post(w.me, first.id, 'later', { until });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.status, 'snoozed');
      assert.equal(r.json.until, until);
      assert.equal(r.json.version, first.version + 1);
      const pending = await w.me.request('GET', '/v1/cards');
      assert.deepEqual(pending.json.cards.map((c: { id: string }) => c.id), [second.id]);
      const snoozed = await w.me.request('GET', '/v1/cards?status=snoozed');
      assert.equal(snoozed.json.cards[0].until, until);
      await w.advance(2 * 3_600_000 - 1);
      assert.equal((await get(first.id)).status, 'snoozed');
      await w.advance(1);
      const back = await get(first.id);
      assert.equal(back.status, 'pending');
      const again = await w.me.request('GET', '/v1/cards');
      assert.deepEqual(again.json.cards.map((c: { id: string }) => c.id), [first.id, second.id]);
      assert.deepEqual(await changesOf(first.id), ['card.created', 'card.changed', 'card.changed']);
    });

    it('presets 1h, tonight (6 PM) and tomorrow (8 AM) in the time zone', async () => {
      const now = w.sb.clock.now();
      const c1 = await w.card();
      const r1 = await post(w.me, c1.id, 'later', { until: '1h' });
      assert.equal(Date.parse(r1.json.until), now + 3_600_000);
      const c2 = await w.card();
      const r2 = await post(w.me, c2.id, 'later', { until: 'tomorrow', timeZone: 'Asia/Tokyo' });
      const t2 = new Date(r2.json.until);
      assert.equal(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(t2), '08:00');
      assert.ok(t2.getTime() - now > 0 && t2.getTime() - now <= 48 * 3_600_000);
      const c3 = await w.card();
      const r3 = await post(w.me, c3.id, 'later', { until: 'tonight', timeZone: 'America/New_York' });
      const t3 = new Date(r3.json.until);
      assert.equal(new Intl.DateTimeFormat('en-GB', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(t3), '18:00');
      assert.ok(t3.getTime() - now >= 60_000 && t3.getTime() - now <= 24 * 3_600_000 + 60_000);
      const c4 = await w.card();
      const r4 = await post(w.me, c4.id, 'later', { until: 'tonight' });
      assert.equal(new Date(r4.json.until).getUTCHours(), 18, 'UTC by default');
    });

    it('refuses an until out of one minute .. two months, bad shapes and time zones', async () => {
      const c = await w.card();
      const now = w.sb.clock.now();
      const bad = [
        {},
        { until: new Date(now + 59_000).toISOString() },
        { until: new Date(now + 63 * 24 * 3_600_000).toISOString() },
        { until: 'next week' },
        { until: '2030-01-01' },
        { until: '1h', timeZone: 'Mars/Olympus' },
        { until: 5 },
      ];
      for (const body of bad) {
        const r = await post(w.me, c.id, 'later', body);
        problem(r, 400, 'invalid');
        assert.ok(r.json.errors.length > 0);
      }
      assert.equal((await post(w.me, c.id, 'later', { until: new Date(now + 60_000).toISOString() })).status, 200);
      const c2 = await w.card();
      assert.equal((await post(w.me, c2.id, 'later', { until: new Date(now + 59 * 24 * 3_600_000).toISOString() })).status, 200);
    });

    it('back brings a snoozed card back; a card already back answers with its version', async () => {
      const c = await w.card();
      const l = await post(w.me, c.id, 'later', { until: '1h' });
      const b = await post(w.me, c.id, 'back');
      assert.equal(b.status, 200, b.text);
      assert.deepEqual(b.json, { id: c.id, status: 'pending', version: l.json.version + 1 });
      const again = await post(w.me, c.id, 'back', {});
      assert.deepEqual(again.json, b.json);
      await w.advance(3_600_000);
      assert.equal((await get(c.id)).version, b.json.version, 'the cancelled Later does not fire');
    });

    it('not_waiting: later on an answered card, back on a done card', async () => {
      const c = await w.card();
      await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] });
      problem(await post(w.me, c.id, 'later', { until: '1h' }), 409, 'not_waiting');
      await w.ctl('POST', `/_sandbox/cards/${c.id}/withdraw`);
      problem(await post(w.me, c.id, 'back'), 409, 'not_waiting');
    });

    it('a snoozed card can be answered', async () => {
      const c = await w.card();
      const l = await post(w.me, c.id, 'later', { until: '1h' });
      assert.equal((await answer(w.me, c.id, { version: l.json.version, choiceIds: ['a'] })).status, 200);
    });
  });

  describe('delegate and take-back (pending <-> delegated)', () => {
    it('freely: hears, undoUntil, the helper sees it only after the hold, its answer goes to the asker and the card is done', async () => {
      const c = await w.card();
      const r = await post(w.me, c.id, 'delegate', { to: { assistantId: w.helperId, agentId: w.helperAgentId }, mode: 'freely', note: 'you know this' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.status, 'delegated');
      assert.equal(r.json.hears, 'while-working');
      assert.equal(Date.parse(r.json.undoUntil), w.sb.clock.now() + 5000);
      const seen = async () => (await w.ctl('GET', `/_sandbox/assistants/${w.helperId}/helper-cards`)).json.cards.length;
      assert.equal(await seen(), 0);
      assert.equal((await w.ctl('POST', `/_sandbox/cards/${c.id}/helper-answer`, { choiceIds: ['a'] })).status, 409);
      await w.advance(5000);
      assert.equal(await seen(), 1);
      const listed = await w.me.request('GET', '/v1/cards?status=delegated');
      assert.equal(listed.json.cards[0].delegatedTo.mode, 'freely');
      const h = await w.ctl('POST', `/_sandbox/cards/${c.id}/helper-answer`, { choiceIds: ['a'] });
      assert.equal(h.status, 200, h.text);
      assert.equal(h.json.status, 'done');
      const got = await heard(c.id);
      assert.equal(got[0]!.type, 'helper-answer');
      assert.deepEqual(got[0]!.body, { choiceIds: ['a'] });
      // Handed over, the hand-over's hold ended (a change: the helper may see it now), answered, closed.
      assert.deepEqual(await changesOf(c.id), ['card.created', 'card.changed', 'card.changed', 'card.answered', 'card.closed']);
      problem(await post(w.me, c.id, 'take-back'), 409, 'not_waiting');
    });

    it('loop: the helper\'s answer comes back to the person as a proposal', async () => {
      const c = await w.card();
      await post(w.me, c.id, 'delegate', { to: { assistantId: w.helperId }, mode: 'loop' });
      await w.advance(5000);
      await w.ctl('POST', `/_sandbox/cards/${c.id}/helper-answer`, { choiceIds: ['b'], text: 'b is safer' });
      const card = await get(c.id);
      assert.equal(card.status, 'pending');
      assert.equal(card.turn, 'you');
      assert.deepEqual(card.proposal.choiceIds, ['b']);
      assert.equal(card.proposal.helper.assistantId, w.helperId);
      assert.deepEqual(await heard(c.id), [], 'the asker hears nothing until the person answers');
      const a = await answer(w.me, c.id, { version: card.version, choiceIds: ['b'] });
      assert.equal(a.status, 200);
    });

    it('take-back before the helper answers', async () => {
      const c = await w.card();
      const d = await post(w.me, c.id, 'delegate', { to: { assistantId: w.helperId }, mode: 'freely' });
      await w.advance(10_000);
      const t = await post(w.me, c.id, 'take-back');
      // The hand-over's hold ended (one change), then the take-back (another).
      assert.deepEqual(t.json, { id: c.id, status: 'pending', version: d.json.version + 2 });
      assert.equal((await w.ctl('GET', `/_sandbox/assistants/${w.helperId}/helper-cards`)).json.cards.length, 0);
      assert.equal((await w.ctl('POST', `/_sandbox/cards/${c.id}/helper-answer`, { choiceIds: ['a'] })).status, 409);
      problem(await post(w.me, c.id, 'take-back'), 409, 'not_waiting');
    });

    it('delegated refuses answer, messages, later and delegate', async () => {
      const c = await w.card();
      const d = await post(w.me, c.id, 'delegate', { to: { assistantId: w.helperId }, mode: 'freely' });
      problem(await answer(w.me, c.id, { version: d.json.version, choiceIds: ['a'] }), 409, 'delegated');
      problem(await post(w.me, c.id, 'messages', { body: 'x' }), 409, 'delegated');
      problem(await post(w.me, c.id, 'later', { until: '1h' }), 409, 'delegated');
      problem(await post(w.me, c.id, 'delegate', { to: { assistantId: w.helperId }, mode: 'loop' }), 409, 'delegated');
      problem(await post(w.me, c.id, 'back'), 409, 'not_waiting');
    });

    it('the helper must be another assistant in reach', async () => {
      const far = (await w.ctl('POST', '/_sandbox/machines', { name: 'desktop' })).json;
      const farAssistant = (await w.ctl('POST', '/_sandbox/assistants', { name: 'far', app: 'cursor', machineId: far.id })).json;
      const c = await w.card();
      for (const body of [
        { to: { assistantId: farAssistant.id }, mode: 'freely' },
        { to: { assistantId: w.assistantId }, mode: 'freely' },
        { to: { assistantId: 'con_nobody' }, mode: 'freely' },
        { to: { assistantId: w.helperId, agentId: 'agt_nobody' }, mode: 'freely' },
        { to: { assistantId: w.helperId }, mode: 'sometimes' },
        { to: {}, mode: 'loop' },
        { mode: 'loop' },
      ]) {
        const r = await post(w.me, c.id, 'delegate', body);
        problem(r, 400, 'invalid');
        assert.ok(r.json.errors[0].field.startsWith('to') || r.json.errors[0].field === 'mode', r.text);
      }
    });
  });

  describe('problems common to every card action', () => {
    const actions: [string, (v: number) => unknown][] = [
      ['answer', (v) => ({ version: v, approved: true })],
      ['undo', () => undefined],
      ['messages', () => ({ body: 'x' })],
      ['later', () => ({ until: '1h' })],
      ['back', () => undefined],
      ['delegate', () => ({ to: { assistantId: 'con_x' }, mode: 'freely' })],
      ['take-back', () => undefined],
    ];

    it('high_stakes (403 with the card url) on every action; the card can be read', async () => {
      const c = await w.card({ kind: 'approval', highStakes: true });
      for (const [action, body] of actions) {
        const r = await post(w.me, c.id, action, body(c.version), { 'idempotency-key': key() });
        problem(r, 403, 'high_stakes');
        assert.equal(r.json.url, `${w.url}/cards/${c.id}`);
      }
      const card = await get(c.id);
      assert.equal(card.highStakes, true);
      assert.equal(card.url, `${w.url}/cards/${c.id}`);
    });

    it('not_found for a card that does not exist and for one out of reach, on every action and on read', async () => {
      const far = (await w.ctl('POST', '/_sandbox/machines', { name: 'desktop' })).json;
      const farAssistant = (await w.ctl('POST', '/_sandbox/assistants', { name: 'far', app: 'cursor', machineId: far.id })).json;
      const farAgent = (await w.ctl('POST', '/_sandbox/agents', { assistantId: farAssistant.id, name: 'main' })).json;
      const out = await w.card({ agentId: farAgent.id });
      for (const id of ['req_doesnotexist', out.id]) {
        problem(await w.me.request('GET', `/v1/cards/${id}`), 404, 'not_found');
        for (const [action, body] of actions) {
          problem(await post(w.me, id, action, body(1), { 'idempotency-key': key() }), 404, 'not_found');
        }
      }
      // a sign-in that reaches every card sees it
      const reg = await w.ctl('POST', '/_sandbox/apps', { name: 'Web', verified: true, scopes: ['cards:read', 'cards:read:all'], redirectUris: ['http://127.0.0.1/cb'] });
      assert.equal(reg.status, 201, reg.text);
    });

    it('forbidden: a notice takes no words and no helper', async () => {
      const hook = (await w.ctl('POST', '/_sandbox/webhooks', { name: 'CI', area: { id: 'prj_ci', name: 'CI' } })).json;
      const sent = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Build failed' }) });
      const { cardId } = (await sent.json()) as { cardId: string };
      problem(await post(w.me, cardId, 'messages', { body: 'x' }), 403, 'forbidden');
      problem(await post(w.me, cardId, 'delegate', { to: { assistantId: w.helperId }, mode: 'freely' }), 403, 'forbidden');
    });
  });
});
