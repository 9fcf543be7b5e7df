// The one press path (ClientCore.act, src/sync/press-path.ts) against the sandbox: a value back,
// never an exception; the result in the model in one write, with the hold on this computer's
// clock; the card read at the hold's end; nothing sent for a version the model knows the person has not seen.
import { strict as assert } from 'node:assert';
import type { Card } from '../../src/api/schemas';
import { holdDeadline } from '../../src/sync/hold';
import { until, makeWorld, signInCore } from '../kit';
import type { World } from '../kit';

describe('the one press path (ClientCore.act)', () => {
  let w: World;
  beforeEach(async () => { w = await makeWorld({ me: false }); });
  afterEach(async () => { await w.close(); });

  async function signedIn() {
    const core = w.core();
    core.feed.setFocused(true);
    await signInCore(w, core);
    return core;
  }

  it('an answer: one write into the model, told as this window\'s press, the hold on this computer\'s clock, read once at the hold\'s end', async () => {
    const core = await signedIn();
    const c = await w.card({ title: 'through the path' });
    await w.advanceUntil(() => core.cards.get(c.id) !== undefined, 1000, 60_000);
    const shown = await core.cards.whole(c.id);
    const events: string[] = [];
    core.cards.changed((e) => { if (e.card.id === c.id) events.push(`${e.previous.status}->${e.card.status}${e.pressedHere ? ' (pressed here)' : ''}`); });
    const before = core.transport.log.length;
    const out = await core.act(core.gestures.fromUiEvent('test:answer'), shown, { type: 'answer', answer: { choiceIds: ['a'] } });
    assert.ok(out.ok, JSON.stringify(out));
    // At once, before any read: the model holds what the service made.
    assert.deepEqual(events, ['pending->answered (pressed here)']);
    assert.equal(core.cards.groupOf(c.id), 'agent');
    assert.equal(out.card.version, out.result.version);
    assert.equal(core.cards.get(c.id)?.version, out.result.version);
    const now = w.clock.now();
    assert.ok(out.holdUntil !== undefined && out.holdUntil > now && out.holdUntil <= now + 5_000, 'the hold: at most 5 s from now, here');
    assert.equal(core.cards.holdUntil(c.id), out.holdUntil, 'the model keeps the same deadline');
    assert.equal((core.cards.get(c.id) as { undoUntil?: string } | undefined)?.undoUntil, new Date(out.holdUntil).toISOString(), 'the card carries it on this clock');
    const sent = core.transport.log.slice(before);
    assert.equal(sent.filter((l) => l.method === 'POST' && l.path.endsWith('/answer')).length, 1, 'one answer sent');
    // The card is whole at once: this press in its history and its answer, in the service's words
    // for this sign-in (GET /v1/me), so the press's own change on the feed is not read.
    const built = core.cards.get(c.id) as Card;
    const me = core.state.kind === 'online' ? core.state.me : undefined;
    assert.ok(me);
    assert.deepEqual(built.answer, { choiceIds: ['a'] });
    assert.deepEqual(built.history?.at(-1), { at: built.history?.at(-1)?.at, type: 'answered', by: 'person', app: me.app.id, appName: me.app.name, machine: me.grant.machine });
    await until(() => core.transport.log.slice(before).some((l) => l.path === '/v1/changes'));
    // The hold ends: the card is read, once in all, and the deadline is gone with the hold.
    const reads = () => core.transport.log.slice(before).filter((l) => l.method === 'GET' && l.path === `/v1/cards/${c.id}`).length;
    await w.advance(6_000);
    await until(() => events.length === 2);
    assert.equal(events[1], 'answered->answered', 'the read replaces the built card: told, not pressed here');
    assert.equal(core.cards.holdUntil(c.id), undefined);
    assert.equal(reads(), 1, 'one read: the hold\'s end, not the press\'s own change');
  });

  it('a problem is a value: a version the model knows is newer sends nothing; a spent gesture, a high-stakes card', async () => {
    const core = await signedIn();
    const c = await w.card({ title: 'changes under the person' });
    await w.advanceUntil(() => core.cards.get(c.id) !== undefined, 1000, 60_000);
    const shown = await core.cards.whole(c.id);
    // The card moves to another area: a new version, which the model reads before the person looks.
    assert.equal((await w.ctl('POST', `/_sandbox/cards/${c.id}/area`, { id: 'prj_moved', name: 'Moved' })).status, 200);
    await core.cards.read(c.id);
    assert.ok((core.cards.get(c.id)?.version ?? 0) > shown.version, 'the model holds a newer version');
    const before = core.transport.log.length;
    const stale = await core.act(core.gestures.fromUiEvent('test:answer'), shown, { type: 'answer', answer: { choiceIds: ['a'] } });
    assert.ok(!stale.ok && stale.problem.code === 'version_conflict', JSON.stringify(stale));
    assert.equal(core.transport.log.slice(before).filter((l) => l.method === 'POST').length, 0, 'nothing sent');
    const g = core.gestures.fromUiEvent('test:twice');
    const fresh = await core.cards.whole(c.id);
    const first = await core.act(g, fresh, { type: 'later', until: new Date(w.clock.now() + 3_600_000).toISOString() });
    assert.ok(first.ok, JSON.stringify(first));
    const again = await core.act(g, first.card, { type: 'back' });
    assert.ok(!again.ok && again.problem.code === 'press_refused', 'a gesture presses once');
    const risky = await w.card({ kind: 'approval', title: 'Pay?', highStakes: true });
    await w.advanceUntil(() => core.cards.get(risky.id) !== undefined, 1000, 60_000);
    const whole = await core.cards.whole(risky.id);
    const out = await core.act(core.gestures.fromUiEvent('test:answer'), whole, { type: 'answer', answer: { approved: true } });
    assert.ok(!out.ok && out.problem.code === 'high_stakes' && !!out.problem.url, JSON.stringify(out));
  });
});

describe('the hold on this computer\'s clock (sync/hold.ts)', () => {
  const now = Date.parse('2026-11-26T12:00:00.000Z');
  it('the service\'s deadline through the known offset', () => {
    // The service runs 90 s ahead: its "5 s from now" is 5 s from now here.
    assert.equal(holdDeadline(new Date(now + 90_000 + 5_000).toISOString(), 90_000, now, true), now + 5_000);
    assert.equal(holdDeadline(new Date(now + 3_000).toISOString(), 0, now, true), now + 3_000);
  });
  it('a press\'s own answer from a clock we cannot trust: the 5 s count from now', () => {
    assert.equal(holdDeadline(new Date(now + 10 * 60_000).toISOString(), 0, now, true), now + 5_000, 'minutes ahead');
    assert.equal(holdDeadline(new Date(now - 10 * 60_000).toISOString(), 0, now, true), now + 5_000, 'minutes behind');
  });
  it('a card read later may be past its hold: it stays past', () => {
    assert.equal(holdDeadline(new Date(now - 2_000).toISOString(), 0, now, false), now - 2_000);
    assert.equal(holdDeadline(undefined, 0, now, false), undefined);
    assert.equal(holdDeadline('not a date', 0, now, false), undefined);
  });
});
