// One card after another in the card panel, in plain Node: which card is next (shared/next-card.ts),
// when the panel offers it (state.ts), and what N or the Next button posts (actions.ts): only once the
// card on screen no longer waits on the person, never in the moment after the step appeared, and
// only ever an open, never an answer.
import * as assert from 'node:assert/strict';
import type { CardListEntry } from '../../../src/api/schemas';
import { isFromWebview } from '../../../src/shared/protocol';
import { ANSWER_KEYS_QUIET_MS, isHeldPress } from '../../../src/shared/key-guard';
import { nextCard, sameNext, NEXT_TITLE_MAX } from '../../../src/shared/next-card';
import * as act from '../../../media/webview/actions';
import { canGoNext, initialState, nextOffered, reduce, type PanelEvent, type PanelState } from '../../../media/webview/state';
import { card, cardMsg, NOW } from './fixtures';

const entry = (id: string, over: Partial<CardListEntry> = {}): CardListEntry =>
  ({ id, kind: 'choice', title: `Card ${id}`, status: 'pending', turn: 'you', version: 1, ...over } as CardListEntry);
const at = (s: PanelState, ms: number, ...events: PanelEvent[]) => events.reduce((x, e) => reduce(x, e, NOW + ms), s);
const NEXT: PanelEvent = { type: 'next', next: { id: 'req_2', title: 'Deploy to staging?', blocking: true, more: 2 } };

describe('next card (shared/next-card.ts)', () => {
  it('the first blocking card in the tree\'s order, else the first; never the one on screen', () => {
    const list = [entry('req_a'), entry('req_b', { blocking: true }), entry('req_c', { blocking: true })];
    assert.deepEqual(nextCard(list, ['req_x']), { id: 'req_b', title: 'Card req_b', blocking: true, more: 2 });
    assert.equal(nextCard(list, ['req_b'])?.id, 'req_c', 'the card just answered is not next');
    assert.deepEqual(nextCard([entry('req_a'), entry('req_d')], ['req_x']), { id: 'req_a', title: 'Card req_a', blocking: false, more: 1 });
    assert.equal(nextCard([entry('req_a')], ['req_a']), undefined);
  });

  it('only cards whose turn is the person\'s', () => {
    const list = [entry('req_a', { turn: 'agent', blocking: true }), entry('req_b', { status: 'answered', blocking: true }), entry('req_c')];
    assert.deepEqual(nextCard(list, []), { id: 'req_c', title: 'Card req_c', blocking: false, more: 0 });
  });

  it('the title is hostile text: one plain, bounded line', () => {
    const n = nextCard([entry('req_a', { title: `[run](command:evil) $(zap)\u202e\n${'x'.repeat(300)}` })], [])!;
    // Cut to the bound, then each link or icon pair broken by a space (plain-text.ts).
    assert.ok(n.title.length <= NEXT_TITLE_MAX + 2, `${n.title.length}`);
    assert.ok(n.title.endsWith('…'));
    assert.ok(!n.title.includes('](') && !n.title.includes('$(') && !n.title.includes('\n') && !n.title.includes('\u202e'), n.title);
  });

  it('sameNext compares what the panel shows', () => {
    const a = nextCard([entry('req_a')], []);
    assert.ok(sameNext(a, nextCard([entry('req_a')], [])));
    assert.ok(!sameNext(a, nextCard([entry('req_a'), entry('req_b')], [])), 'the count after it changed');
    assert.ok(sameNext(undefined, undefined));
    assert.ok(!sameNext(a, undefined));
  });
});

describe('the panel\'s Next step (webview state and actions)', () => {
  const fresh = () => initialState('req_1', undefined, 'UTC');

  it('is not offered while the card on screen waits on the person: no answer covers more than it', () => {
    const s = at(fresh(), 0, cardMsg(card()), NEXT);
    assert.equal(nextOffered(s), false);
    assert.equal(act.openNext(s, NOW + 10_000, true), undefined);
    assert.equal(act.openNext(s, NOW + 10_000, false), undefined, 'not even a click: the step is not there');
  });

  it('is offered once the card is answered, after a moment for keys; a click counts at once', () => {
    const answered = at(fresh(), 0, cardMsg(card()), NEXT, cardMsg(card({ status: 'answered', turn: 'agent', version: 4 })));
    assert.equal(nextOffered(answered), true);
    assert.equal(answered.nextSince, NOW);
    assert.equal(canGoNext(answered, NOW + ANSWER_KEYS_QUIET_MS - 1), false, 'N right after the answer (a key meant for the card) does nothing');
    assert.equal(act.openNext(answered, NOW + ANSWER_KEYS_QUIET_MS - 1, true), undefined);
    const m = act.openNext(answered, NOW + ANSWER_KEYS_QUIET_MS, true);
    assert.deepEqual(m, { type: 'openNext', cardId: 'req_2' });
    assert.ok(isFromWebview(m), 'a message the host takes');
    assert.deepEqual(act.openNext(answered, NOW + 1, false), m, 'a mouse click is the person\'s own');
  });

  it('not while a press is on its way', () => {
    let s = at(fresh(), 0, cardMsg(card({ status: 'answered', turn: 'agent' })), NEXT);
    assert.equal(nextOffered(s), true);
    s = at(s, 10, { type: 'requested', requestId: 'q', what: 'undo' }, { type: 'busy', requestId: 'q' });
    assert.equal(nextOffered(s), false);
    assert.equal(act.openNext(s, NOW + 10_000, true), undefined);
  });

  it('another card coming to be next makes N wait again (its title was not on screen long enough)', () => {
    let s = at(fresh(), 0, cardMsg(card({ status: 'snoozed', turn: 'you' })), NEXT);
    assert.equal(s.nextSince, NOW);
    s = at(s, 5_000, { type: 'next', next: { id: 'req_2', title: 'Deploy to staging?', blocking: true, more: 1 } });
    assert.equal(s.nextSince, NOW, 'the same card next: the moment is not restarted');
    s = at(s, 6_000, { type: 'next', next: { id: 'req_9', title: 'Another', blocking: false, more: 0 } });
    assert.equal(s.nextSince, NOW + 6_000);
    assert.equal(canGoNext(s, NOW + 6_100), false);
    s = at(s, 7_000, { type: 'next' });
    assert.equal(nextOffered(s), false, 'nothing else waits: no step');
    assert.equal(s.nextSince, undefined);
  });

  it('the card undone (waiting again) takes the step away', () => {
    let s = at(fresh(), 0, cardMsg(card({ status: 'answered', turn: 'agent', version: 4 })), NEXT);
    assert.equal(nextOffered(s), true);
    s = at(s, 1000, cardMsg(card({ version: 5 })));
    assert.equal(nextOffered(s), false);
  });

  it('a gone card offers the next one too', () => {
    const s = at(fresh(), 0, cardMsg(card()), NEXT, { type: 'gone', message: 'This card is gone.' });
    assert.equal(nextOffered(s), true);
  });

  it('a held N repeats nothing; N in a text box types', () => {
    const key = (k: string) => ({ key: k, repeat: true, ctrlKey: false, metaKey: false });
    assert.equal(isHeldPress(key('n'), false), true);
    assert.equal(isHeldPress(key('N'), false), true);
    assert.equal(isHeldPress(key('n'), true), false);
  });
});
