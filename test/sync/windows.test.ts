// Several windows, one sign-in: only the feed owner long-polls; the others read the feed slowly;
// a hand-over of ownership loses no change.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { createTransport } from '../../src/api/http';
import type { HttpTransport } from '../../src/api/http';
import type { Timers } from '../../src/api/runtime';
import { MemorySecretStore } from '../../src/auth/secret-store';
import { FEED_LEASE_RENEW_MS, FeedLease } from '../../src/sync/feed-lease';
import { until, makeWorld, settle, signInCore } from '../kit';
import type { World } from '../kit';

/**
 * A window whose process dies: after `crash()` its timers never fire and no answer reaches it
 * (nothing renews or releases the lease; dispose is never called by the test).
 */
function crashable(timers: Timers): { timers: Timers; transport: HttpTransport; crash(): void } {
  let dead = false;
  const inner = createTransport();
  const gone = () => new Error('the window\'s process is gone');
  return {
    timers: { setTimeout: (fn, ms) => timers.setTimeout(() => { if (!dead) fn(); }, ms) },
    transport: {
      async send(req) {
        if (dead) throw gone();
        const res = await inner.send(req);
        if (dead) throw gone();
        return res;
      },
      close: () => inner.close(),
    },
    crash: () => { dead = true; },
  };
}

describe('sync: two windows sharing one sign-in', function () {
  // Two cores, lease files and loopback HTTP: slow when the machine is busy, never timed.
  this.timeout(120_000);
  let w: World;
  beforeEach(async () => {
    w = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await w.close();
  });

  /** Two windows of one computer sharing one secret store; A signs in (focused if asked), B starts after. */
  async function twoWindows(o: { focusA: boolean }) {
    const store = new MemorySecretStore();
    const a = w.core({ store });
    const b = w.core({ store });
    if (o.focusA) a.feed.setFocused(true);
    await signInCore(w, a);
    await b.start();
    return { a, b };
  }

  it('only the owner long-polls; a hand-over loses no change', async () => {
    const { a, b } = await twoWindows({ focusA: true });
    assert.equal(b.state.kind, 'online', 'the second window uses the same sign-in');
    await w.advance(1000); // lease checks run
    await until(() => a.feed.isOwner());
    assert.equal(b.feed.isOwner(), false);
    await until(() => a.transport.longPolls === 1);
    assert.equal(b.transport.longPolls, 0);
    // B's first reads (its full read, its first look at the feed) are behind it: a busy machine can
    // make them late enough to see the next card, which is not what this test is about.
    await until(() => ['/v1/cards', '/v1/changes'].every((p) => b.transport.log.some((l) => l.path === p)) && b.transport.inFlight === 0);

    const c1 = await w.card({ title: 'one' });
    await until(() => a.cards.get(c1.id) !== undefined);
    assert.equal(b.cards.get(c1.id), undefined, 'the slow reader has not read yet');
    await w.advance(30_000);
    await until(() => b.cards.get(c1.id) !== undefined);

    // Hand-over: the person focuses window B; cards arrive around the switch.
    const c2 = await w.card({ title: 'two' });
    b.feed.setFocused(true);
    a.feed.setFocused(false);
    const c3 = await w.card({ title: 'three' });
    await w.advance(16_000); // A's lease renewal finds B holds it
    await until(() => !a.feed.isOwner() && b.feed.isOwner()); // lease file work is not HTTP: wait for it
    await settle(w.transports);
    const aWaits = () => a.transport.log.filter((l) => l.url.includes('wait=25')).length;
    const aWaitsAtHandOver = aWaits();
    const c4 = await w.card({ title: 'four' });
    await until(() => [c2, c3, c4].every((c) => b.cards.get(c.id) !== undefined));
    await w.advance(31_000);
    await until(() => [c1, c2, c3, c4].every((c) => a.cards.get(c.id) !== undefined));
    await settle(w.transports);
    assert.equal(a.transport.longPolls, 0, 'A stopped long-polling');
    assert.equal(b.transport.longPolls, 1);
    assert.equal(aWaits(), aWaitsAtHandOver, 'no long-poll by A after the hand-over');
    const bWaits = b.transport.log.filter((l) => l.url.includes('wait=25'));
    assert.ok(bWaits.length >= 1);
    // Every change reached both windows: same cards in both models.
    assert.deepEqual(a.cards.list('pending').map((c) => c.id), b.cards.list('pending').map((c) => c.id));
  });

  it('a press in the window that does not own the feed: its hold\'s end reaches that window from the feed, not 30 s later (#53)', async () => {
    const { a, b } = await twoWindows({ focusA: true });
    await w.advance(1000);
    await until(() => a.feed.isOwner());
    assert.equal(b.feed.isOwner(), false);
    const c = await w.card({ title: 'pressed in B' });
    await w.advanceUntil(() => b.cards.get(c.id) !== undefined, 1000, 60_000);
    await settle(w.transports);
    const start = b.transport.log.length;
    const out = await b.act(b.gestures.fromUiEvent('test:choose'), await b.cards.whole(c.id), { type: 'answer', answer: { choiceIds: ['a'] } });
    assert.ok(out.ok, JSON.stringify(out));
    const pressed = out.ok ? out.result.version : -1;
    // The press's own change comes from B's feed, read at once (the press built the card whole: no card read for it).
    await until(() => (b.cards.get(c.id)?.version ?? 0) >= pressed && b.transport.log.slice(start).some((l) => l.path === '/v1/changes'));
    await w.advance(5_000);
    // The hold ended on the service: B moves to the version that says so within a couple of seconds
    // of clock time, where its own pace would read the feed only after 30.
    await w.advanceUntil(() => (b.cards.get(c.id)?.version ?? 0) > pressed, 250, 2_000);
    assert.ok((b.cards.get(c.id)?.version ?? 0) > pressed, 'B has the version the hold\'s end raised');
    await settle(w.transports);
    const reads = b.transport.log.slice(start).filter((l) => l.method === 'GET' && l.path === `/v1/cards/${c.id}`).length;
    assert.equal(reads, 1, 'one read, at the hold\'s end');
    // Then B goes back to its own pace: no more waits of its own.
    const waits = () => b.transport.log.filter((l) => l.url.includes('wait=25')).length;
    const waitsAfter = waits();
    await w.advance(10_000);
    await settle(w.transports);
    assert.equal(waits(), waitsAfter, 'B does not keep long-polling');
  });

  it('when the owner window closes, it releases the lease and another takes the feed at its next check', async () => {
    const { a, b } = await twoWindows({ focusA: true });
    await w.advance(1000);
    assert.equal(b.feed.isOwner(), false);
    await a.dispose(); // releases the lease
    // One renewal period, well inside the 45 s the lease would still run: only the release explains it.
    await w.advance(FEED_LEASE_RENEW_MS + 1000);
    await until(() => b.feed.isOwner());
    await until(() => b.transport.longPolls === 1);
  });

  it('when the owner window crashes (never renews, never releases), another takes the feed once the lease runs out', async () => {
    const store = new MemorySecretStore();
    const dying = crashable(w.clock);
    const a = w.core({ store, timers: dying.timers, transport: dying.transport });
    const b = w.core({ store });
    a.feed.setFocused(true);
    await signInCore(w, a);
    await b.start();
    await w.advance(1000);
    await until(() => a.feed.isOwner());
    assert.equal(b.feed.isOwner(), false);
    const lease = new FeedLease(path.join(w.dir, 'locks'), 'probe', w.clock);
    dying.crash();
    const held = await lease.read();
    assert.ok(held, 'A holds the lease when it dies');
    // Up to the last moment of A's lease, B's checks find it taken, and nobody released it.
    await w.advance(held.until - w.clock.now() - 1);
    assert.deepEqual(await lease.read(), held, 'the lease file is as A left it');
    assert.equal(b.feed.isOwner(), false, 'B waits while the lease runs');
    // Past it, B's next check takes the feed and B long-polls.
    await w.advance(FEED_LEASE_RENEW_MS + 1000);
    await until(() => b.feed.isOwner());
    await until(() => b.transport.longPolls === 1);
    assert.notEqual((await lease.read())?.holder, held.holder);
  });

  it('signing out in one window signs the other out too (shared store)', async () => {
    const { a, b } = await twoWindows({ focusA: false });
    await w.card({ title: 'x' });
    await b.cards.refresh();
    assert.equal(b.cards.list('pending').length, 1);
    await a.signOut();
    await until(() => b.state.kind === 'signed-out');
    assert.equal(b.cards.list('pending').length, 0, 'nothing of the person stays on screen');
  });
});
