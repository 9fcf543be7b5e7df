// Every computer's cards (assistantCards.scope `everywhere`) and every row whole, against the
// sandbox: the service keeps a sign-in without cards:read:all to its own computer; a sign-in that
// asked for it sees every computer's cards, each naming its computer; and the rows the list sends
// light are read whole within half a minute's reads.
import { strict as assert } from 'node:assert';
import { ApiProblemError } from '../../src/api/errors';
import type { Card } from '../../src/api/schemas';
import { isLight } from '../../src/sync/card-filter';
import { makeWorld, signInCore } from '../kit';
import type { World } from '../kit';

describe('sync: every computer, every row whole (sandbox)', () => {
  let w: World;
  beforeEach(async () => { w = await makeWorld({ me: false }); });
  afterEach(async () => { await w.close(); });

  /** A second computer of the person, with an assistant asking one card. */
  async function otherComputer(): Promise<{ machineId: string; cardId: string }> {
    const machine = (await w.ctl('POST', '/_sandbox/machines', { name: 'desktop' })).json;
    const assistant = (await w.ctl('POST', '/_sandbox/assistants', { name: 'web', app: 'codex', machineId: machine.id })).json;
    const agent = (await w.ctl('POST', '/_sandbox/agents', { assistantId: assistant.id, name: 'main' })).json;
    const card = await w.card({ agentId: agent.id, title: 'Deploy the desktop build?' });
    return { machineId: machine.id, cardId: card.id };
  }

  it('without cards:read:all the service lists and reads this computer\'s cards only; signed in again with it, every computer\'s cards show, each naming its computer', async () => {
    const other = await otherComputer();
    const mine = await w.card({ title: 'Pick a database' });
    const core = w.core({ scope: { kind: 'everywhere' } });
    core.feed.setFocused(true);
    await signInCore(w, core);
    assert.ok(core.state.kind === 'online');
    assert.equal(core.state.me.grant.reach, 'machine');
    assert.deepEqual(core.cards.list('pending').map((c) => c.id), [mine.id], 'the other computer\'s card is not listed');
    await assert.rejects(core.cards.whole(other.cardId), (e: unknown) => e instanceof ApiProblemError && e.code === 'not_found', 'nor read by id');

    await signInCore(w, core, { extraScopes: ['cards:read:all'] });
    assert.ok(core.state.kind === 'online');
    assert.ok(core.state.me.grant.scopes.includes('cards:read:all'));
    assert.equal(core.state.me.grant.reach, 'all');
    // No refresh asked: signing in again reads every card (cards coming into reach make no change).
    assert.deepEqual(core.cards.list('pending').map((c) => c.id).sort(), [mine.id, other.cardId].sort());
    assert.equal((core.cards.get(other.cardId) as Card).machine?.name, 'desktop');
    assert.equal((core.cards.get(mine.id) as Card).machine?.id, w.machineId);

    // The machine scope of the same wide sign-in keeps to this computer (by the list's machine filter).
    core.cards.setScope({ kind: 'machine', machineId: w.machineId });
    await core.cards.refresh();
    assert.deepEqual(core.cards.list('pending').map((c) => c.id), [mine.id]);
  });

  it('rows past the list\'s first whole cards are read whole, the reads staying under half a minute\'s allowance', async () => {
    const n = 160;
    for (let i = 0; i < n; i++) await w.card({ title: `Card ${i}` });
    const at: { t: number; path: string }[] = [];
    const core = w.core({ onRequest: (r) => at.push({ t: w.clock.now(), path: r.path }) });
    core.feed.setFocused(true);
    await signInCore(w, core);
    assert.equal(core.cards.list('pending').length, n);
    const allWhole = () => core.cards.list('pending').every((c) => !isLight(c));
    assert.ok(!allWhole(), 'the list sent most rows light');
    await w.advanceUntil(allWhole, 1000, 10 * 60_000);
    for (const c of core.cards.list('pending')) assert.equal((c as Card).assistant?.name, 'api', `${c.id} shows who asks`);
    const reads = at.filter((r) => r.path.startsWith('/v1/cards'));
    assert.ok(reads.length >= n - 3, 'each light row read once');
    assert.ok(reads.length <= n + 10, `no row read twice (${reads.length} reads)`);
    // Every minute-long window: card reads (lists and by id) under half of the 300 a minute.
    for (const r of reads) {
      const inWindow = reads.filter((x) => x.t >= r.t && x.t < r.t + 60_000).length;
      assert.ok(inWindow <= 150, `${inWindow} card reads in the minute from ${r.t}`);
    }
  });
});
