import { strict as assert } from 'node:assert';
import { makeWorld, signInCore, settle } from '../kit';
import type { World } from '../kit';

describe('client core: sign-in and first read against the sandbox', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await w.close();
  });

  it('signs in through the device flow and reads the cards', async () => {
    const c1 = await w.card({ title: 'first' });
    const core = w.core();
    const states: string[] = [];
    core.onDidChangeState((s) => states.push(s.kind));
    await core.start();
    assert.equal(core.state.kind, 'signed-out');
    await signInCore(w, core);
    assert.equal(core.state.kind, 'online');
    assert.deepEqual(states.slice(0, 2), ['signed-out', 'signing-in']);
    assert.ok(core.cards.get(c1.id));
    assert.equal(core.cards.list('pending').length, 1);
    assert.equal(core.cards.counts().waiting, 1);
    await settle(w.transports);
  });
});
