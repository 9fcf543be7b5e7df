import { strict as assert } from 'node:assert';
import { HighStakesError } from '../../src/api/errors';
import { createGestureMinter, GESTURE_FRESH_MS, Press, PressRefusedError, UserGesture } from '../../src/sync/press';
import type { PressSender, SendContext } from '../../src/sync/press';
import { ManualClock } from '../kit/clock';

function setup() {
  const clock = new ManualClock({ start: 1_000_000 });
  const minter = createGestureMinter(clock);
  const calls: { id: string; version: number; type: string; ctx: SendContext }[] = [];
  const sender: PressSender = async (card, action, ctx) => {
    calls.push({ id: card.id, version: card.version, type: action.type, ctx });
    return { id: card.id, version: card.version + 1, status: 'answered' };
  };
  return { clock, minter, calls, sender, tick: (ms: number) => clock.advance(ms) };
}

describe('sync: the press', () => {
  it('needs a gesture minted by a UI event: a forged object or a cast is refused', () => {
    const { clock, sender } = setup();
    const forged = { source: 'timer', at: clock.now() } as unknown as UserGesture;
    assert.throws(() => Press.create(forged, { id: 'req_1', version: 1 }, { type: 'gotIt' }, sender, clock), TypeError);
    const shaped = Object.create(UserGesture.prototype) as UserGesture;
    assert.throws(() => Press.create(shaped, { id: 'req_1', version: 1 }, { type: 'gotIt' }, sender, clock), TypeError);
    assert.throws(() => UserGesture.mint('x', 0, Symbol('user-gesture-mint') as never), TypeError);
  });

  it('a gesture makes one press only, and only right after the event', () => {
    const { clock, minter, sender, tick } = setup();
    const g = minter.fromUiEvent('click:answer');
    Press.create(g, { id: 'req_1', version: 1 }, { type: 'gotIt' }, sender, clock);
    assert.throws(() => Press.create(g, { id: 'req_2', version: 1 }, { type: 'gotIt' }, sender, clock), PressRefusedError);
    const late = minter.fromUiEvent('click:answer');
    tick(GESTURE_FRESH_MS + 1);
    assert.throws(() => Press.create(late, { id: 'req_1', version: 1 }, { type: 'gotIt' }, sender, clock), PressRefusedError);
  });

  it('a high-stakes card is refused before anything is sent, with its url', () => {
    const { clock, minter, sender, calls } = setup();
    assert.throws(
      () => Press.create(minter.fromUiEvent('click'), { id: 'req_9', version: 3, highStakes: true, url: 'http://svc/cards/req_9' }, { type: 'answer', answer: { approved: true } }, sender, clock),
      (e: unknown) => e instanceof HighStakesError && e.url === 'http://svc/cards/req_9' && e.cardId === 'req_9',
    );
    assert.equal(calls.length, 0);
  });

  it('sends once: a second send returns the same outcome without sending; one key per press', async () => {
    const { clock, minter, sender, calls } = setup();
    const p = Press.create(minter.fromUiEvent('click'), { id: 'req_1', version: 4 }, { type: 'answer', answer: { choiceIds: ['a'] } }, sender, clock);
    const [a, b] = await Promise.all([p.send(), p.send()]);
    assert.equal(a, b);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.version, 4, 'the version the person saw');
    assert.equal(calls[0]!.ctx.idempotencyKey, p.idempotencyKey);
    const p2 = Press.create(minter.fromUiEvent('click'), { id: 'req_1', version: 4 }, { type: 'answer', answer: { choiceIds: ['a'] } }, sender, clock);
    assert.notEqual(p2.idempotencyKey, p.idempotencyKey, 'another press never reuses a key');
    assert.equal(p.state, 'sent');
  });

  it('cancel ends "still waiting" and aborts waits between retries; a cancelled press never sends', async () => {
    const { clock, minter } = setup();
    let ctx: SendContext | undefined;
    let release!: () => void;
    const sender: PressSender = (card, _a, c) => {
      ctx = c;
      return new Promise((r) => (release = () => r({ id: card.id, version: 2 })));
    };
    const p = Press.create(minter.fromUiEvent('click'), { id: 'req_1', version: 1 }, { type: 'back' }, sender, clock);
    const sent = p.send();
    assert.equal(ctx!.stillWaiting(), true);
    p.cancel();
    assert.equal(ctx!.stillWaiting(), false);
    assert.equal(ctx!.signal.aborted, true);
    release();
    await sent;
    const q = Press.create(minter.fromUiEvent('click'), { id: 'req_1', version: 1 }, { type: 'back' }, sender, clock);
    q.cancel();
    await assert.rejects(q.send(), PressRefusedError);
  });

  it('the press copies what the person saw: later edits of the objects change nothing', async () => {
    const { clock, minter, sender, calls } = setup();
    const seen = { id: 'req_1', version: 7 };
    const p = Press.create(minter.fromUiEvent('click'), seen, { type: 'gotIt' }, sender, clock);
    seen.version = 8;
    await p.send();
    assert.equal(calls[0]!.version, 7);
  });
});
