// GET /v1/changes: commit order, opaque cursor, `wait` held until the first change (up to 25 s),
// limit 1..100 (default 50) with `more`, reach, and starting from now without `after`.
import assert from 'node:assert/strict';
import { dpopProof } from './helpers';
import { ALL_SCOPES, answer, makeWorld, type World } from '../kit';
import { nowOf } from '../kit/clocks';
import { until } from '../kit/until';

describe('sandbox change feed', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  const feed = (q: string) => w.me.request('GET', `/v1/changes${q}`);
  const waiters = () => (w.sb.sandbox.feed as unknown as { waiters: Set<unknown> }).waiters.size;
  /** Until the sandbox holds `n` waits: a long-poll sent is not yet one it listens for. */
  async function held(n = 1): Promise<void> {
    await until(`${n} wait(s) held by the sandbox`, () => waiters() === n, 5_000, 5);
  }

  it('starts from now without `after`, then lists changes in commit order with ids and types only', async () => {
    const old = await w.card();
    const start = await feed('');
    assert.equal(start.status, 200, start.text);
    assert.deepEqual(start.json.changes, []);
    assert.equal(start.json.more, false);
    assert.equal(typeof start.json.cursor, 'string');
    const c = await w.card();
    await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] });
    await w.advance(5000);
    await w.ctl('POST', `/_sandbox/cards/${c.id}/pickup`);
    await w.me.request('POST', `/v1/cards/${old.id}/later`, { body: { until: '1h' } });
    const r = await feed(`?after=${start.json.cursor}`);
    assert.deepEqual(r.json.changes.map((x: { type: string; cardId: string }) => [x.type, x.cardId]), [
      ['card.created', c.id], ['card.answered', c.id], ['card.changed', c.id], ['card.closed', c.id], ['card.changed', old.id],
    ]);
    for (const ch of r.json.changes) assert.deepEqual(Object.keys(ch).sort(), ['at', 'cardId', 'type']);
    const again = await feed(`?after=${r.json.cursor}`);
    assert.deepEqual(again.json.changes, []);
  });

  it('limit 1..100, default 50, with `more` and a cursor that continues', async () => {
    const start = (await feed('')).json.cursor;
    for (let i = 0; i < 53; i++) await w.card();
    const first = await feed(`?after=${start}`);
    assert.equal(first.json.changes.length, 50);
    assert.equal(first.json.more, true);
    const rest = await feed(`?after=${first.json.cursor}`);
    assert.equal(rest.json.changes.length, 3);
    assert.equal(rest.json.more, false);
    const two = await feed(`?after=${start}&limit=2`);
    assert.equal(two.json.changes.length, 2);
    assert.equal(two.json.more, true);
    for (const q of ['?limit=0', '?limit=101', '?wait=26', '?wait=-1', '?after=garbage', '?after=', '?colour=red', `?after=${start}&after=${start}`]) {
      const r = await feed(q);
      assert.equal(r.status, 400, q);
      assert.equal(r.json.code, 'invalid');
    }
    assert.equal((await feed('?limit=100')).status, 200);
  });

  it('wait holds the request until the first change', async () => {
    const start = (await feed('')).json.cursor;
    const pending = feed(`?after=${start}&wait=25`);
    await held();
    const c = await w.card();
    const r = await pending;
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.changes.map((x: { cardId: string }) => x.cardId), [c.id]);
  });

  it('wait is woken by a notice posted to the incoming address (the person\'s own, in every sign-in\'s reach)', async () => {
    const hook = (await w.ctl('POST', '/_sandbox/webhooks', { name: 'CI', area: { id: 'prj_ci', name: 'CI' } })).json as { url: string };
    const start = (await feed('')).json.cursor;
    const t0 = Date.now();
    const pending = feed(`?after=${start}&wait=25`);
    await held();
    const posted = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Deploy failed' }) });
    assert.ok(posted.ok, String(posted.status));
    const { cardId } = await posted.json() as { cardId: string };
    const r = await pending;
    assert.deepEqual(r.json.changes.map((x: { cardId: string }) => x.cardId), [cardId]);
    // Not at the end of the 25 s hold: the notice itself ended it.
    assert.ok(Date.now() - t0 < 10_000, `answered after ${Date.now() - t0} ms`);
  });

  it('wait ends empty after its seconds on the sandbox clock', async () => {
    const start = (await feed('')).json.cursor;
    const pending = feed(`?after=${start}&wait=10`);
    await held();
    await w.advance(10_000);
    const r = await pending;
    assert.deepEqual(r.json.changes, []);
    assert.equal(r.json.more, false);
  });

  it('changes out of reach are left out, and a wait is not woken by them', async () => {
    const far = (await w.ctl('POST', '/_sandbox/machines', { name: 'desktop' })).json;
    const farAssistant = (await w.ctl('POST', '/_sandbox/assistants', { name: 'far', app: 'cursor', machineId: far.id })).json;
    const farAgent = (await w.ctl('POST', '/_sandbox/agents', { assistantId: farAssistant.id, name: 'main' })).json;
    const start = (await feed('')).json.cursor;
    const pending = feed(`?after=${start}&wait=25`);
    await held();
    await w.card({ agentId: farAgent.id });
    // A change wakes the waits before the control surface answers: had it ended this one, it would be gone.
    assert.equal(waiters(), 1, 'a change out of reach does not end the wait');
    const near = await w.card();
    const r = await pending;
    assert.deepEqual(r.json.changes.map((x: { cardId: string }) => x.cardId), [near.id]);
    const there = await w.signIn({ machine: far, scopes: ALL_SCOPES });
    const theirs = await there.request('GET', `/v1/changes?after=${start}`);
    assert.equal(theirs.json.changes.length, 1);
    assert.notEqual(theirs.json.changes[0].cardId, near.id);
  });

  it('a client that gives up on a wait frees it', async () => {
    const start = (await feed('')).json.cursor;
    const proof = await dpopProof(w.me.key, {
      htm: 'GET', htu: `${w.url}/v1/changes`, nonce: w.me.nonce, accessToken: w.me.accessToken, now: nowOf(w.clock),
    });
    const ac = new AbortController();
    const pending = fetch(`${w.url}/v1/changes?after=${start}&wait=25`, {
      headers: { authorization: `DPoP ${w.me.accessToken}`, dpop: proof }, signal: ac.signal,
    }).catch(() => 'aborted');
    await held(1);
    ac.abort();
    assert.equal(await pending, 'aborted');
    await held(0);
  });

  it('a sandbox closing ends the waits', async () => {
    const start = (await feed('')).json.cursor;
    const pending = feed(`?after=${start}&wait=25`).catch((e: unknown) => e);
    await held();
    await w.close();
    const r = await pending;
    assert.ok(r !== undefined);
    w = await makeWorld();
  });
});
