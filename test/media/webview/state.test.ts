// The card panel's state in plain Node: the host's messages and the person's input, through the reducer.
import * as assert from 'node:assert/strict';
import type { PanelCard } from '../../../src/shared/panel-card';
import { announcement, canAnswer, disabled, holdLeft, initialState, reduce, type PanelEvent, type PanelState } from '../../../media/webview/state';
import { asked, card, cardMsg, NOW } from './fixtures';

const run = (s: PanelState, ...events: PanelEvent[]) => events.reduce((x, e) => reduce(x, e, NOW), s);
const fresh = () => initialState('req_1', undefined, 'UTC');

describe('card panel state (webview, plain Node)', () => {
  it('keeps a saved draft only for its own card', () => {
    assert.deepEqual(initialState('req_1', { cardId: 'req_1', draft: { text: 'hi' } }, 'UTC').draft, { text: 'hi' });
    assert.deepEqual(initialState('req_1', { cardId: 'req_2', draft: { text: 'hi' } }, 'UTC').draft, {});
    assert.deepEqual(initialState('req_1', 'junk', 'UTC').draft, {});
  });

  it('shows the card and the version presses name; the host draft fills an empty one only', () => {
    const s = run(fresh(), cardMsg(card(), { draft: { note: 'from host' } }));
    assert.equal(s.shownVersion, 3);
    assert.equal(s.canAct, true);
    assert.deepEqual(s.draft, { note: 'from host' });
    const typed = run(s, { type: 'edit', field: 'note', value: 'mine' }, cardMsg(card({ version: 4 }), { draft: { note: 'old' } }));
    assert.equal(typed.draft.note, 'mine');
  });

  it('picks one (radio) or several (checkbox); a pick whose option is gone on the new version is dropped', () => {
    let s = run(fresh(), cardMsg(card()), { type: 'pick', optionId: 'a', multi: false }, { type: 'pick', optionId: 'b', multi: false });
    assert.deepEqual(s.draft.choiceIds, ['b']);
    s = run(s, { type: 'pick', optionId: 'a', multi: true });
    assert.deepEqual(s.draft.choiceIds, ['b', 'a']);
    s = run(s, cardMsg(card({ version: 4, options: [{ id: 'a', label: 'A' }] })));
    assert.deepEqual(s.draft.choiceIds, ['a']);
  });

  it('does not change the state it was given', () => {
    const s = run(fresh(), cardMsg(card()));
    const frozen = JSON.stringify(s);
    run(s, { type: 'pick', optionId: 'a', multi: false }, ...asked('answer', { type: 'busy', requestId: 'q' }));
    assert.equal(JSON.stringify(s), frozen);
  });

  it('busy turns presses off; done says the result, clears an answer\'s draft and starts the hold', () => {
    let s = run(fresh(), cardMsg(card()), { type: 'pick', optionId: 'a', multi: false }, ...asked('answer', { type: 'busy', requestId: 'q' }));
    assert.equal(disabled(s), true);
    assert.equal(announcement(s), 'Sending…');
    s = run(s, ...asked('answer', { type: 'done', requestId: 'q', message: 'Answered.', version: 4, undoUntil: new Date(NOW + 5_000).toISOString(), hostNowMs: NOW, answered: 'You chose: A.' }));
    assert.equal(disabled(s), false);
    assert.deepEqual(s.draft, {});
    assert.equal(s.shownVersion, 4, 'Undo names the answered version');
    assert.equal(holdLeft(s, NOW), 5);
    assert.equal(announcement(s), 'Answered.');
  });

  it('the hold running out says who has it now: the assistant, the helper, or (a notice) nobody', () => {
    const held = (c: PanelCard) => run(fresh(), cardMsg(c), ...asked('answer', { type: 'done', requestId: 'q', message: 'x', version: 4, undoUntil: new Date(NOW + 1_000).toISOString(), hostNowMs: NOW }), { type: 'holdOver' });
    assert.match(held(card()).notice!, /assistant has heard/);
    assert.match(held(card({ kind: 'update' })).notice!, /closed/);
    assert.doesNotMatch(held(card({ kind: 'update' })).notice!, /assistant/);
    assert.match(held(card({ status: 'delegated' })).notice!, /helper/);
    assert.equal(held(card()).undoUntil, undefined);
  });

  it('the hold ran out and the host\'s new read came before the panel\'s tick: still told the assistant has heard', () => {
    const answered = run(fresh(), cardMsg(card()), ...asked('answer', { type: 'done', requestId: 'q', message: 'Answered.', version: 4, undoUntil: new Date(NOW + 5_000).toISOString(), hostNowMs: NOW }));
    // Past the hold: the host reads the card again and sends it without undoUntil.
    const later = reduce(answered, cardMsg(card({ version: 5, status: 'answered', turn: 'agent' })), NOW + 5_300);
    assert.equal(later.undoUntil, undefined);
    assert.match(later.notice ?? '', /assistant has heard/);
    // Inside the hold, a new read (another app undid it) tells nothing of the kind.
    const early = reduce(answered, cardMsg(card({ version: 5 })), NOW + 2_000);
    assert.doesNotMatch(early.notice ?? '', /has heard/);
  });

  it('the hold\'s end from the feed reaches the panel before its own clock says the hold is over: told all the same (#53)', () => {
    // The panel counts on the host's clock through an offset taken when a message arrives, so it
    // runs late by that message's way here; the feed brings the end within milliseconds of it.
    const answered = run(fresh(), cardMsg(card()), ...asked('answer', { type: 'done', requestId: 'q', message: 'Answered.', version: 4, undoUntil: new Date(NOW + 5_000).toISOString(), hostNowMs: NOW - 60 }));
    const ended = reduce(answered, cardMsg(card({ version: 5, status: 'answered', turn: 'agent' })), NOW + 5_010);
    assert.equal(ended.undoUntil, undefined);
    assert.match(ended.notice ?? '', /assistant has heard/);
    // Handed over: the helper has it now.
    const handed = run(fresh(), cardMsg(card()), ...asked('delegate', { type: 'done', requestId: 'q', message: 'Handed over.', version: 4, undoUntil: new Date(NOW + 5_000).toISOString(), hostNowMs: NOW - 60 }));
    assert.match(reduce(handed, cardMsg(card({ version: 5, status: 'delegated', turn: 'agent' })), NOW + 5_010).notice ?? '', /helper has it/);
  });

  it('undone (a new version asking again) drops what was answered', () => {
    let s = run(fresh(), cardMsg(card()), ...asked('answer', { type: 'done', requestId: 'q', message: 'Answered.', version: 4, hostNowMs: NOW, answered: 'You chose: A.' }));
    s = run(s, cardMsg(card({ version: 4, status: 'answered', turn: 'agent' })));
    assert.equal(s.answered, 'You chose: A.');
    s = run(s, ...asked('undo', { type: 'done', requestId: 'q', message: 'Undone: the card waits on you again.', version: 5, hostNowMs: NOW }), cardMsg(card({ version: 6 })));
    assert.equal(s.answered, undefined);
  });

  it('announces only status: a problem, changed since you saw it; never the card itself', () => {
    let s = run(fresh(), cardMsg(card()));
    assert.equal(announcement(s), '', 'showing a card announces nothing (the person reads it)');
    s = run(s, { type: 'pick', optionId: 'a', multi: false });
    assert.equal(announcement(s), '', 'a pick announces nothing');
    s = run(s, ...asked('answer', { type: 'problem', requestId: 'q', problem: { code: 'offline', message: 'Offline.', next: 'Try again.' } }));
    assert.equal(announcement(s), 'Offline. Try again.');
    s = run(s, ...asked('answer', { type: 'problem', requestId: 'q', problem: { code: 'version_conflict', message: 'Changed.', next: 'Read it.' } }),
      cardMsg(card({ version: 7 }), { changedSinceAnswer: true }));
    assert.match(announcement(s), /changed after you saw it \(now version 7\)/);
    s = run(s, { type: 'gone', message: 'This card is gone.' });
    assert.equal(announcement(s), 'This card is gone.');
  });

  it('a refused press as the host tells it (the card as it is now, then the refusal): one status said, what was answered dropped', () => {
    let s = run(fresh(), cardMsg(card()), ...asked('answer', { type: 'done', requestId: 'q', message: 'Answered.', version: 4, hostNowMs: NOW, answered: 'You chose: A.' }));
    s = run(s, ...asked('undo', { type: 'busy', requestId: 'q' }));
    assert.equal(announcement(s), 'Sending…');
    const said: string[] = [];
    for (const e of [cardMsg(card({ version: 7 }), { changedSinceAnswer: true }),
      { type: 'problem', requestId: 'q', problem: { code: 'version_conflict', message: 'Changed.', next: 'Read it.' } } as PanelEvent]) {
      s = run(s, e);
      if (said.at(-1) !== announcement(s)) said.push(announcement(s));
    }
    assert.equal(said.length, 1, `said: ${JSON.stringify(said)}`);
    assert.match(said[0]!, /changed after you saw it \(now version 7\)/);
    assert.equal(s.answered, undefined, 'the new version asks again');
    assert.equal(s.busy, undefined);
  });

  it('changed-since-answer lasts until a newer version or a result', () => {
    let s = run(fresh(), cardMsg(card()), cardMsg(card({ version: 4 }), { changedSinceAnswer: true }));
    assert.equal(s.changedSinceAnswer, true);
    assert.equal(run(s, cardMsg(card({ version: 4 }))).changedSinceAnswer, true, 'the same version read again');
    assert.equal(run(s, cardMsg(card({ version: 5 }))).changedSinceAnswer, false);
    s = run(s, ...asked('answer', { type: 'done', requestId: 'q', message: 'Answered.', version: 5, hostNowMs: NOW }));
    assert.equal(s.changedSinceAnswer, false);
  });

  it('canAnswer follows the kind', () => {
    const with_ = (c: PanelCard, ...e: PanelEvent[]) => canAnswer(run(fresh(), cardMsg(c), ...e));
    assert.equal(with_(card()), false);
    assert.equal(with_(card(), { type: 'pick', optionId: 'a', multi: false }), true);
    assert.equal(with_(card({ kind: 'text', options: undefined })), false);
    assert.equal(with_(card({ kind: 'text', options: undefined }), { type: 'edit', field: 'text', value: '  ' }), false);
    assert.equal(with_(card({ kind: 'text', options: undefined }), { type: 'edit', field: 'text', value: 'yes' }), true);
    const asks = card({ kind: 'questions', options: undefined, asks: [{ id: 'q1', title: 'One' }, { id: 'q2', title: 'Two' }] } as Partial<PanelCard>);
    assert.equal(with_(asks, { type: 'editAsk', askId: 'q1', value: 'x' }), false);
    assert.equal(with_(asks, { type: 'editAsk', askId: 'q1', value: 'x' }, { type: 'editAsk', askId: 'q2', value: 'y' }), true);
    assert.equal(with_(card({ kind: 'failure', options: undefined })), true);
  });

  it('the host clock offset counts the hold on the service clock', () => {
    const s = run(fresh(), cardMsg(card(), { hostNowMs: NOW + 60_000, undoUntil: new Date(NOW + 63_000).toISOString() }));
    assert.equal(holdLeft(s, NOW), 3);
  });

  it('a reply is matched by its request id: one nobody asked for changes nothing', () => {
    const s = run(fresh(), cardMsg(card()), { type: 'pick', optionId: 'a', multi: false });
    assert.equal(run(s, { type: 'busy', requestId: 'q' }).busy, undefined, 'busy for a request never sent');
    assert.deepEqual(run(s, { type: 'done', requestId: 'q', message: 'Answered.', version: 4, hostNowMs: NOW }), s, 'done for a request never sent');
    assert.deepEqual(run(s, { type: 'assistants', requestId: 'q', assistants: [] }), s);
    // The reply names what was asked: an answer's done clears the draft, whatever else is pending.
    const two = run(s, { type: 'requested', requestId: 'a1', what: 'loadAssistants' }, { type: 'requested', requestId: 'a2', what: 'answer' });
    const done = run(two, { type: 'done', requestId: 'a2', message: 'Answered.', version: 4, hostNowMs: NOW });
    assert.deepEqual(done.draft, {});
    assert.deepEqual(done.pending, { a1: 'loadAssistants' });
    assert.equal(run(done, { type: 'done', requestId: 'a1', message: 'x', version: 5, hostNowMs: NOW }).shownVersion, 4, 'the helpers\' request is not a press');
    const listed = run(done, { type: 'assistants', requestId: 'a1', assistants: [] });
    assert.deepEqual(listed.assistants, []);
    assert.deepEqual(listed.pending, {});
  });

  it('the hand-over picks live in the draft; a new helper resets the agent', () => {
    const s = run(fresh(), cardMsg(card()), { type: 'pickHelper', assistantId: 'as_1' }, { type: 'pickAgent', agentId: 'ag_1' }, { type: 'pickMode', mode: 'loop' });
    assert.deepEqual(s.draft, { delegateAssistantId: 'as_1', delegateAgentId: 'ag_1', delegateMode: 'loop' });
    assert.equal(run(s, { type: 'pickHelper', assistantId: 'as_2' }).draft.delegateAgentId, '');
    const done = run({ ...s, showHandOver: true }, ...asked('delegate', { type: 'done', requestId: 'q', message: 'Handed over.', version: 4, hostNowMs: NOW }));
    assert.equal(done.showHandOver, false);
  });
});
