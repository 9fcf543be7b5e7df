// Idempotency-Key: required on answer, honoured on every other write; the first answer replayed
// for 24 h with Idempotent-Replayed; a concurrent twin gets 409 idempotency_in_progress; the same
// key for another request 422 idempotency_mismatch; keys are 1..255 printable ASCII.
import assert from 'node:assert/strict';
import { answer, key, makeWorld, type World } from '../kit';

describe('sandbox idempotency', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  const heard = async (id: string) => (await w.ctl('GET', `/_sandbox/cards/${id}/heard`)).json.heard as unknown[];

  it('replays the first answer with Idempotent-Replayed and acts once', async () => {
    const c = await w.card();
    const k = key();
    const first = await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] }, k);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await answer(w.me, c.id, { choiceIds: ['a'], version: c.version }, k);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.json, first.json);
    await w.advance(5000);
    assert.equal((await heard(c.id)).length, 1);
    const card = (await w.me.request('GET', `/v1/cards/${c.id}`)).json.card;
    // One answer and its hold's end (a change of its own, #53): not a second answer.
    assert.equal(card.version, first.json.version + 1, 'no second change');
  });

  it('replays a refusal too, and forgets after 24 h', async () => {
    const c = await w.card();
    const k = key();
    const conflict = await answer(w.me, c.id, { version: 99, choiceIds: ['a'] }, k);
    assert.equal(conflict.json.code, 'version_conflict');
    const replay = await answer(w.me, c.id, { version: 99, choiceIds: ['a'] }, k);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.json, conflict.json);
    const later = await w.me.request('POST', `/v1/cards/${c.id}/later`, { body: { until: '1h' }, headers: { 'idempotency-key': 'later-1' } });
    assert.equal(later.status, 200);
    await w.advance(24 * 3_600_000 - 1000);
    const within = await w.me.request('POST', `/v1/cards/${c.id}/later`, { body: { until: '1h' }, headers: { 'idempotency-key': 'later-1' } });
    assert.equal(within.headers.get('idempotent-replayed'), 'true');
    await w.advance(1000);
    const after = await w.me.request('POST', `/v1/cards/${c.id}/later`, { body: { until: '1h' }, headers: { 'idempotency-key': 'later-1' } });
    assert.equal(after.headers.get('idempotent-replayed'), null);
    assert.equal(after.status, 200, 'acted again: snoozed again from now');
  });

  it('honoured on undo, messages, later, back, delegate, take-back and presence', async () => {
    const c = await w.card();
    const send = (action: string, body: unknown, k: string) =>
      w.me.request('POST', `/v1/cards/${c.id}/${action}`, { ...(body !== undefined ? { body } : {}), headers: { 'idempotency-key': k } });
    const steps: [string, unknown][] = [
      ['later', { until: '1h' }], ['back', undefined], ['delegate', { to: { assistantId: w.helperId }, mode: 'freely' }],
      ['take-back', {}], ['messages', { body: 'hi' }],
    ];
    for (const [action, body] of steps) {
      const k = key();
      const a = await send(action, body, k);
      assert.equal(a.status, 200, `${action}: ${a.text}`);
      const b = await send(action, body, k);
      assert.equal(b.headers.get('idempotent-replayed'), 'true', action);
      assert.deepEqual(b.json, a.json);
    }
    assert.equal((await heard(c.id)).length, 1, 'the words were heard once');
    const c2 = await w.card();
    const a = await answer(w.me, c2.id, { version: 1, choiceIds: ['a'] });
    const k = key();
    const u1 = await w.me.request('POST', `/v1/cards/${c2.id}/undo`, { headers: { 'idempotency-key': k } });
    const u2 = await w.me.request('POST', `/v1/cards/${c2.id}/undo`, { headers: { 'idempotency-key': k } });
    assert.equal(u1.json.version, a.json.version + 1);
    assert.deepEqual(u2.json, u1.json);
    const pk = key();
    const p1 = await w.me.request('POST', '/v1/presence', { body: { here: true }, headers: { 'idempotency-key': pk } });
    const p2 = await w.me.request('POST', '/v1/presence', { body: { here: true }, headers: { 'idempotency-key': pk } });
    assert.equal(p1.status, 204);
    assert.equal(p2.status, 204);
    assert.equal(p2.headers.get('idempotent-replayed'), 'true');
    assert.equal((await w.ctl('GET', '/_sandbox/presence')).json.lastPings.length, 1);
  });

  it('422 idempotency_mismatch for the same key with another body or card', async () => {
    const c = await w.card();
    const d = await w.card();
    const k = key();
    await answer(w.me, c.id, { version: 1, choiceIds: ['a'] }, k);
    const other = await answer(w.me, c.id, { version: 1, choiceIds: ['b'] }, k);
    assert.equal(other.status, 422);
    assert.equal(other.json.code, 'idempotency_mismatch');
    const elsewhere = await answer(w.me, d.id, { version: 1, choiceIds: ['a'] }, k);
    assert.equal(elsewhere.json.code, 'idempotency_mismatch');
    assert.equal((await w.me.request('GET', `/v1/cards/${d.id}`)).json.card.status, 'pending');
  });

  it('409 idempotency_in_progress for a twin while the first is still answering', async () => {
    const c = await w.card();
    // The first is held until the twin has been answered (a 1 s hold was outlasted by the twin's
    // own DPoP proof and request at load 19 on two cores: #36), then let go.
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, delayMs: 60_000, times: 1 });
    const k = key();
    const first = answer(w.me, c.id, { version: 1, choiceIds: ['a'] }, k);
    await w.held();
    const twin = await answer(w.me, c.id, { version: 1, choiceIds: ['a'] }, k);
    assert.equal(twin.status, 409);
    assert.equal(twin.json.code, 'idempotency_in_progress');
    assert.deepEqual((await w.ctl('POST', '/_sandbox/faults/release')).json, { released: 1 });
    assert.equal((await first).status, 200);
    const replay = await answer(w.me, c.id, { version: 1, choiceIds: ['a'] }, k);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  });

  it('keys are per sign-in', async () => {
    const other = await w.signIn({ machine: w.machine, scopes: ['cards:read', 'cards:later'] });
    const c = await w.card();
    const k = key();
    await w.me.request('POST', `/v1/cards/${c.id}/later`, { body: { until: '1h' }, headers: { 'idempotency-key': k } });
    const r = await other.request('POST', `/v1/cards/${c.id}/back`, { headers: { 'idempotency-key': k } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('idempotent-replayed'), null);
  });

  it('a key is 1 to 255 printable ASCII characters', async () => {
    const c = await w.card();
    for (const bad of ['x'.repeat(256), 'tab\there', 'ünïcode']) {
      const r = await answer(w.me, c.id, { version: 1, choiceIds: ['a'] }, bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.equal(r.json.errors[0].field, 'Idempotency-Key');
    }
    assert.equal((await answer(w.me, c.id, { version: 1, choiceIds: ['a'] }, '~'.repeat(255))).status, 200);
  });

  it('an answer given while the connection dropped is replayed to the retry, heard once', async () => {
    const c = await w.card();
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, drop: true, times: 1 });
    const k = key();
    await assert.rejects(answer(w.me, c.id, { version: 1, choiceIds: ['a'] }, k));
    const retry = await answer(w.me, c.id, { version: 1, choiceIds: ['a'] }, k);
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    await w.advance(5000);
    assert.equal((await heard(c.id)).length, 1);
  });

  it('a 503 before any work is not kept: the retry with the same key acts', async () => {
    const c = await w.card();
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, status: 503, times: 1 });
    const k = key();
    const failed = await answer(w.me, c.id, { version: 1, choiceIds: ['a'] }, k);
    assert.equal(failed.status, 503);
    assert.equal(failed.json.code, 'unavailable');
    const retry = await answer(w.me, c.id, { version: 1, choiceIds: ['a'] }, k);
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    await w.advance(5000);
    assert.equal((await heard(c.id)).length, 1);
  });
});
