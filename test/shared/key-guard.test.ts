import * as assert from 'node:assert/strict';
import { ANSWER_KEYS_QUIET_MS, AnswerKeyGuard, isHeldPress, pressAllowed, UNASKED_CLICKS_QUIET_MS } from '../../src/shared/key-guard';

describe('answer key guard', () => {
  it('a panel the person did not open: a click lands on nothing for a moment; keys wait as always (#37)', () => {
    let t = 0;
    const keys = new AnswerKeyGuard(() => t);
    const clicks = new AnswerKeyGuard(() => t, UNASKED_CLICKS_QUIET_MS);
    const click = { detail: 1 };
    const key = { detail: 0 };
    assert.equal(pressAllowed(click, true, keys, clicks), true, 'a panel the person opened: a click counts');
    keys.arm();
    clicks.arm();
    t = 700;
    assert.equal(pressAllowed(key, true, keys, clicks), true, 'keys: their own 600 ms');
    assert.equal(pressAllowed(click, true, keys, clicks), false, 'a click 700 ms after the panel appeared unasked');
    assert.equal(pressAllowed(click, false, keys, clicks), false, 'whatever it presses');
    t = UNASKED_CLICKS_QUIET_MS;
    assert.equal(pressAllowed(click, true, keys, clicks), true, 'then it counts');
  });

  it('is quiet for 600 ms after a card shows, then lets keys through', () => {
    let t = 1_000;
    const g = new AnswerKeyGuard(() => t);
    assert.equal(ANSWER_KEYS_QUIET_MS, 600);
    assert.equal(g.allows(), true, 'nothing shown yet');
    g.arm();
    t += 100;
    assert.equal(g.allows(), false, 'a key 100 ms after the card showed');
    t += 499;
    assert.equal(g.allows(), false, 'still at 599 ms');
    t += 1;
    assert.equal(g.allows(), true, 'at 600 ms');
  });

  it('focus arriving (or a new version) starts the quiet moment again', () => {
    let t = 0;
    const g = new AnswerKeyGuard(() => t);
    g.arm();
    t = 700;
    assert.equal(g.allows(), true);
    g.arm();
    t = 1_000;
    assert.equal(g.allows(), false);
    t = 1_300;
    assert.equal(g.allows(), true);
  });

  it('a held key never presses: repeats of Enter, Space, digits and U are stopped; a held letter in a text box still types', () => {
    const key = (k: string, over: Partial<{ repeat: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) => ({ key: k, repeat: true, ctrlKey: false, metaKey: false, ...over });
    for (const k of ['Enter', ' ', '1', '9', 'u', 'U']) assert.equal(isHeldPress(key(k), false), true, k);
    assert.equal(isHeldPress(key('Enter', { repeat: false }), false), false, 'the first press is the person\'s');
    assert.equal(isHeldPress(key('a'), false), false);
    assert.equal(isHeldPress(key('Enter'), true), false, 'a held Enter in a text box adds lines');
    assert.equal(isHeldPress(key('Enter', { ctrlKey: true }), true), true, 'a held Ctrl+Enter in a text box never answers twice');
    assert.equal(isHeldPress(key('Enter', { metaKey: true }), true), true);
  });
});
