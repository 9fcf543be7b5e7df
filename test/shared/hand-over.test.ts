// The hand-over's picks, a loop helper's proposal in the card's words, and what a sign-in with
// fewer scopes may be offered: plain Node (no vscode), also run in the host.
import * as assert from 'node:assert/strict';
import type { Card } from '../../src/api/schemas';
import { hearsWords, helperChoices, helperNameOf, markedFailedStep } from '../../src/shared/hand-over';
import { laterPresets, withNote } from '../../src/shared/answer-choices';
import { problemMessage } from '../../src/shared/problem-messages';
import { readProposal } from '../../src/shared/proposal';
import { allowedBy, canHandOver, EVERYTHING, missingScopes, notAllowedNote } from '../../src/shared/grant-scopes';

const card = (extra: Partial<Card>): Card => ({ id: 'req_1', version: 4, status: 'pending', turn: 'you', kind: 'choice', title: 'Which database?', ...extra });

describe('hand-over picks', () => {
  it('never offers the asking assistant as its own helper', () => {
    const list = [{ id: 'con_asker', name: 'Claude' }, { id: 'con_help', name: 'Codex' }];
    const c = card({ assistant: { id: 'con_asker', name: 'Claude', app: 'claude-code' } });
    assert.deepEqual(helperChoices(list, c).map((a) => a.id), ['con_help']);
    assert.deepEqual(helperChoices(list, card({})).map((a) => a.id), ['con_asker', 'con_help'], 'no asker known: all');
  });

  it('says what hears means, and shows an unknown value as text', () => {
    assert.equal(hearsWords('while-working', 'Codex'), 'Codex hears it while it works, after the 5 s to take it back.');
    assert.equal(hearsWords('at-\u202Enight\n', 'Codex'), 'Codex hears it: at-[U+202E]night.');
    assert.match(hearsWords(undefined, ''), /^The helper gets it/);
  });

  it('defaults the failed step to the one the card marks', () => {
    assert.equal(markedFailedStep(card({ steps: [{ title: 'a', state: 'done' }, { title: 'b', state: 'failed' }] })), 1);
    assert.equal(markedFailedStep(card({ steps: [{ title: 'a' }] })), undefined);
  });
});

describe('a loop helper\'s proposal', () => {
  const options = [{ id: 'pg', label: 'Postgres' }, { id: 'sq', label: 'SQLite' }];

  it('reads as the card\'s option labels, with the answer to accept in one press', () => {
    const v = readProposal(card({ options, proposal: { choiceIds: ['sq'], note: { text: 'smaller' }, helper: { assistantId: 'con_h', agentId: 'agt_r' } } }));
    assert.deepEqual(v?.lines, ['Choose SQLite.', 'Note: smaller']);
    assert.deepEqual(v?.accept, { choiceIds: ['sq'], note: { text: 'smaller' }, via: 'text' });
    assert.deepEqual(v?.helper, { assistantId: 'con_h', agentId: 'agt_r' });
    assert.ok(!v.lines.join(' ').includes('sq'), 'no ids in the words');
  });

  it('names steps, questions and approvals in the card\'s words', () => {
    const steps = [{ title: 'Build' }, { title: 'Roll out', state: 'failed' }];
    assert.deepEqual(readProposal(card({ kind: 'failure', steps, proposal: { failedStep: 0, text: 'the build cache' } }))?.lines,
      ['The step that failed: Build.', 'Answer: the build cache']);
    const asks = [{ id: 'q1', title: 'Region?', options: [{ id: 'eu', label: 'Europe' }] }, { id: 'q2', title: 'Name?' }];
    const q = readProposal(card({ kind: 'questions', asks, proposal: { answers: { q1: 'eu', q2: 'api-2' } } }));
    assert.deepEqual(q?.lines, ['Region?: Europe', 'Name?: api-2']);
    assert.deepEqual(q?.accept, { answers: { q1: 'eu', q2: 'api-2' } });
    assert.deepEqual(readProposal(card({ kind: 'approval', proposal: { approved: false } }))?.accept, { approved: false });
  });

  it('shows what does not fit the card, and offers no one-press accept for it', () => {
    const v = readProposal(card({ options, proposal: { choiceIds: ['mysql'] } }));
    assert.deepEqual(v?.lines, ['Choose 1 option(s) this card does not offer.']);
    assert.equal(v?.accept, undefined);
    assert.equal(readProposal(card({ options, proposal: { choiceIds: ['pg', 'sq'] } }))?.accept, undefined, 'two picks on a one-pick card');
    assert.equal(readProposal(card({ kind: 'failure', steps: [{ title: 'a' }], proposal: { failedStep: 7 } }))?.accept, undefined);
    assert.equal(readProposal(card({ kind: 'choice', proposal: { approved: true } }))?.accept, undefined);
    const odd = readProposal(card({ proposal: { weird: { nested: 1 } } }));
    assert.equal(odd?.accept, undefined);
    assert.match(odd!.lines[0]!, /cannot show/);
    assert.equal(readProposal(card({})), undefined);
  });
});

describe('scopes the person did not allow', () => {
  it('offers only what the granted scopes allow', () => {
    const a = allowedBy(['cards:read', 'cards:later']);
    assert.deepEqual(a, { answer: false, reply: false, later: true, delegate: false, assistants: false });
    assert.equal(canHandOver(allowedBy(['cards:delegate'])), false, 'the helper list needs assistants:read');
    assert.equal(canHandOver(allowedBy(['cards:delegate', 'assistants:read'])), true);
    assert.deepEqual(allowedBy(undefined), EVERYTHING, 'not known yet: nothing hidden on a guess');
    assert.deepEqual(missingScopes(a), ['cards:answer', 'cards:reply', 'cards:delegate', 'assistants:read']);
  });

  it('says how to sign in again with them', () => {
    assert.equal(notAllowedNote(EVERYTHING), undefined);
    const note = notAllowedNote(allowedBy(['cards:read', 'cards:reply', 'cards:later', 'cards:delegate', 'assistants:read']))!;
    assert.match(note, /answer cards \(cards:answer\)/);
    assert.match(note, /sign out, sign in again/);
  });

  it('insufficient_scope names the scope', () => {
    assert.match(problemMessage('insufficient_scope', { scope: 'cards:delegate' }).message, /lacks the permission cards:delegate/);
  });
});

describe('the panel\'s and the palette\'s shared words (#38)', () => {
  it('a helper is named from the assistants read, never by its id: undefined until read, or when not among them', () => {
    const list = [{ id: 'con_h', name: 'Codex helper', agents: [{ id: 'ag_r', name: 'reviewer' }] }];
    assert.equal(helperNameOf(undefined, 'con_h'), undefined, 'not read yet');
    assert.equal(helperNameOf(list, 'con_other', 'ag_x'), undefined, 'not among them');
    assert.equal(helperNameOf(list, 'con_h'), 'Codex helper');
    assert.equal(helperNameOf(list, 'con_h', 'ag_r'), 'Codex helper · reviewer');
    assert.equal(helperNameOf(list, 'con_h', 'ag_gone'), 'Codex helper', 'an agent not read: the assistant only, no id');
  });

  it('Later\'s presets as the service reads them, in one set of words; a note as the panel sends it', () => {
    assert.deepEqual(laterPresets().map((p) => p.until), ['1h', 'tonight', 'tomorrow']);
    assert.deepEqual(laterPresets().map((p) => p.label), ['In 1 hour', 'Tonight (6 PM)', 'Tomorrow (8 AM)']);
    assert.deepEqual(withNote({ approved: true }, ' after lunch '), { approved: true, note: { text: 'after lunch' }, via: 'text' });
    assert.deepEqual(withNote({ theyDecide: true }, '  '), { theyDecide: true });
  });
});
