// What one answer costs the window that holds the feed (#53), counted on its own transport: the
// card is read when it comes, once after the press (from the press's own change on the feed, not
// also on a read of its own), and once when its hold ends: no timer of the client's, and an asker
// that waits with pickup closes the card in the same step as the hold's end, one read for both.
// The bench gives the figure end to end (`npm run bench -- --only permission`, readsPerAnswer).
import { strict as assert } from 'node:assert';
import { makeWorld, signInCore, type World } from '../kit';

describe('reads per answer (the window that holds the feed)', () => {
  let w: World;
  beforeEach(async () => { w = await makeWorld({ me: false }); });
  afterEach(async () => { await w.close(); });

  const ask = async (route: string, key: string, body?: unknown) => {
    const r = await fetch(`${w.url}${route}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return r.json() as Promise<{ sessionKey: string; card: { id: string }; status: string; pickedUp?: boolean }>;
  };

  it('an approval asked through /_ask and answered here: three reads of the card, however many prompts', async () => {
    const core = w.core();
    core.feed.setFocused(true);
    await signInCore(w, core);
    let key = w.sb.askKey;
    for (let i = 0; i < 3; i++) {
      const start = core.transport.log.length;
      const reg = await ask('/_ask/sessions', key, { app: 'claude-code', appSessionId: 'sess-1', cwd: '/x', name: 'api', card: { kind: 'approval', title: `Run step ${i}?`, reason: 'permission' } });
      key = reg.sessionKey;
      const id = reg.card.id;
      await w.advanceUntil(() => core.cards.get(id) !== undefined, 500, 60_000);
      const heard = ask(`/_ask/cards/${id}/heard?seen=0&wait=20000&pickup=1`, key);
      const out = await core.act(core.gestures.fromUiEvent('test:approve'), await core.cards.whole(id), { type: 'answer', answer: { approved: true } });
      assert.ok(out.ok, JSON.stringify(out));
      assert.equal(core.cards.groupOf(id), 'agent', 'the press shows at once, without a read');
      await w.advanceUntil(() => core.transport.log.slice(start).filter((l) => l.method === 'GET' && l.path === `/v1/cards/${id}`).length === 2, 250, 4_000);
      await w.advance(5_000);
      assert.equal((await heard).pickedUp, true);
      await w.advanceUntil(() => core.cards.get(id) === undefined, 500, 60_000);
      await w.advance(3_000); // nothing more comes
      const reads = core.transport.log.slice(start).filter((l) => l.method === 'GET' && l.path === `/v1/cards/${id}`).length;
      assert.equal(reads, 3, `prompt ${i}: reads of the card`);
    }
  });
});
