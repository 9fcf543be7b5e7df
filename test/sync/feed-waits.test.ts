// The feed owner's waits share (3 held long-polls a minute) kept for the quiet time before the
// next card (#53/#54, permissionToTreeP95Ms). A CLI's permission prompt makes three changes: the
// card, the person's press, its hold's end. Held waits for all three used the share within the
// first prompts, and the next card waited for a read every 2 s. Now the owner reads quickly after
// a change and at the person's pace during a hold pressed here, so at a prompt every 27 s (the
// bench's pace) each card finds a wait held and reaches the model at once.
import { strict as assert } from 'node:assert';
import { makeWorld, signInCore, type World } from '../kit';

describe('the feed owner\'s waits at a permission prompt\'s pace', () => {
  let w: World;
  beforeEach(async () => { w = await makeWorld({ me: false }); });
  afterEach(async () => { await w.close(); });

  const ask = async (route: string, key: string, body?: unknown) => {
    const r = await fetch(`${w.url}${route}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return r.json() as Promise<{ sessionKey: string; card: { id: string }; pickedUp?: boolean }>;
  };
  /** Whether a long-poll waits in the sandbox, looked at for up to 300 ms of real time (it is sent once the clock settled). */
  const heldWait = async () => {
    for (let i = 0; i < 60; i++) {
      if (w.sb.sandbox.feed.listening > 0) return true;
      await new Promise((r) => setTimeout(r, 5));
    }
    return false;
  };

  it('a prompt every 27 s (card, Approve, hold\'s end): each card finds a wait held and is in the model without the clock moving', async () => {
    const core = w.core();
    core.feed.setFocused(true);
    await signInCore(w, core);
    await w.advance(2_000);
    let key = w.sb.askKey;
    const found: string[] = [];
    for (let i = 0; i < 8; i++) {
      const held = await heldWait();
      const reg = await ask('/_ask/sessions', key, { app: 'claude-code', appSessionId: 'sess-1', cwd: '/x', name: 'api', card: { kind: 'approval', title: `Run step ${i}?`, reason: 'permission' } });
      key = reg.sessionKey;
      const id = reg.card.id;
      // No clock moved: only a held wait brings it.
      const atOnce = await (async () => {
        for (let t = 0; t < 100; t++) {
          if (core.cards.get(id)) return true;
          await new Promise((r) => setTimeout(r, 10));
        }
        return false;
      })();
      found.push(`prompt ${i}: ${held ? 'wait held' : 'no wait held'}, ${atOnce ? 'at once' : 'not at once'}`);
      await w.advanceUntil(() => core.cards.get(id) !== undefined, 250, 10_000);
      const heard = ask(`/_ask/cards/${id}/heard?seen=0&wait=20000&pickup=1`, key);
      const out = await core.act(core.gestures.fromUiEvent('test:approve'), await core.cards.whole(id), { type: 'answer', answer: { approved: true } });
      assert.ok(out.ok, JSON.stringify(out));
      await w.advance(5_500);
      assert.equal((await heard).pickedUp, true);
      await w.advanceUntil(() => core.cards.get(id) === undefined, 250, 10_000);
      await w.advance(21_000);
    }
    assert.deepEqual(found, found.map((_, i) => `prompt ${i}: wait held, at once`));
  });
});
