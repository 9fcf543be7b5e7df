// What one answer costs the window that holds the feed (#53), counted on its own transport: the
// card is read when it comes and once when its hold ends: no timer of the client's, no read of the
// press's own change (the press built the card whole: its answer and history line, as the service
// writes them), and an asker that waits with pickup closes the card in the same step as the hold's
// end, one read for both.
// The bench gives the figure end to end (`npm run bench -- --only permission`, readsPerAnswer).
import { strict as assert } from 'node:assert';
import { Card } from '../../src/api/schemas';
import { makeWorld, signInCore, type World } from '../kit';

describe('reads per answer (the window that holds the feed)', () => {
  let w: World;
  beforeEach(async () => { w = await makeWorld({ me: false }); });
  afterEach(async () => { await w.close(); });

  const ask = async (route: string, key: string, body?: unknown) => {
    const r = await fetch(`${w.url}${route}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return r.json() as Promise<{ sessionKey: string; card: { id: string }; status: string; pickedUp?: boolean }>;
  };

  it('an approval asked through /_ask and answered here: two reads of the card, however many prompts', async () => {
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
      const built = core.cards.get(id) as Card;
      const reads = () => core.transport.log.slice(start).filter((l) => l.method === 'GET' && l.path === `/v1/cards/${id}`).length;
      // What the service wrote for the press, as the press built it: its own change on the feed
      // need not be read (counted below).
      const whole = Card.parse((await w.ctl('GET', `/_sandbox/cards/${id}`)).json); // as the client parses it
      assert.deepEqual(built.answer, whole.answer);
      assert.deepEqual(built.answeredFrom, whole.answeredFrom);
      assert.deepEqual(built.history?.map(({ at: _at, ...h }) => h), whole.history?.map(({ at: _at, ...h }) => h));
      await w.advance(5_000);
      assert.equal((await heard).pickedUp, true);
      await w.advanceUntil(() => core.cards.get(id) === undefined, 500, 60_000);
      await w.advance(3_000); // nothing more comes
      assert.equal(reads(), 2, `prompt ${i}: reads of the card`);
    }
  });
});
