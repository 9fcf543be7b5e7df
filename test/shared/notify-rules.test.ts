import * as assert from 'node:assert/strict';
import type { Card } from '../../src/api/schemas';
import { permissionCard } from '../../src/bridge/permission-card';
import { summaryOneLine } from '../../src/shared/summary-blocks';
import { answeredText, buttonSet, byThePersonHere, isReturn, moreWaitingText, notificationText, stillWaitingText, notifySetting, proposalWords, shortLabel, wantsNotification, who, withMoreWaiting } from '../../src/shared/notify-rules';

const HOSTILE = 'Deploy? [Open card](command:workbench.action.terminal.sendSequence?{"text":"id>pwned\\r"}) $(check)';
const live = (s: string) => /\]\(/.test(s) || /\$\(/.test(s);

const card = (over: Partial<Card> = {}): Card => ({
  id: 'req_1', version: 3, status: 'pending', turn: 'you', kind: 'choice', title: 'Which database?',
  options: [{ id: 'pg', label: 'Postgres' }, { id: 'sq', label: 'SQLite' }], ...over,
});

describe('notification rules', () => {
  it('the setting: blocking by default, all, off; anything unknown is blocking', () => {
    assert.equal(notifySetting(undefined), 'blocking');
    assert.equal(notifySetting('all'), 'all');
    assert.equal(notifySetting('off'), 'off');
    assert.equal(notifySetting('loud'), 'blocking');
  });

  it('which cards notify: waiting on the person, blocking unless `all`, never with `off`', () => {
    const blocking = { status: 'pending', turn: 'you', blocking: true };
    const quiet = { status: 'pending', turn: 'you' };
    assert.equal(wantsNotification('blocking', blocking), true);
    assert.equal(wantsNotification('blocking', quiet), false);
    assert.equal(wantsNotification('all', quiet), true);
    assert.equal(wantsNotification('off', blocking), false);
    assert.equal(wantsNotification('all', { status: 'pending', turn: 'agent', blocking: true }), false, 'the assistant\'s turn');
    assert.equal(wantsNotification('all', { status: 'snoozed', turn: 'you', blocking: true }), false, 'in Later');
  });

  it('what counts as coming back: from Later, from a helper (taken back or returned by a loop); not an Undo', () => {
    const now = { status: 'pending', turn: 'you' };
    const here = 'mch_here';
    assert.equal(isReturn({ status: 'snoozed', turn: 'you' }, now, here), true);
    assert.equal(isReturn({ status: 'delegated', turn: 'agent' }, now, here), true);
    assert.equal(isReturn({ status: 'answered', turn: 'agent' }, now, here), false, 'the person\'s own Undo');
    assert.equal(isReturn({ status: 'pending', turn: 'you' }, now, here), false, 'an edit');
    assert.equal(isReturn({ status: 'snoozed', turn: 'you' }, { status: 'done', turn: 'agent' }, here), false);
  });

  it('not a return to tell: the person\'s own Back or Take back on this computer; from elsewhere or by the service, it is', () => {
    const step = (by: string, machine?: string) => ({ at: '2026-11-24T10:00:00Z', type: 'back', by, ...(machine ? { machine: { id: machine, name: 'x' } } : {}) });
    const back = (h: ReturnType<typeof step>[]) => ({ status: 'pending', turn: 'you', history: h });
    const snoozed = { status: 'snoozed', turn: 'you' };
    assert.equal(isReturn(snoozed, back([step('person', 'mch_here')]), 'mch_here'), false, 'their own Back here');
    assert.equal(isReturn({ status: 'delegated', turn: 'agent' }, back([step('person', 'mch_here')]), 'mch_here'), false, 'their own Take back here');
    assert.equal(isReturn(snoozed, back([step('person', 'mch_phone')]), 'mch_here'), true, 'pressed on another computer');
    assert.equal(isReturn(snoozed, back([step('person', 'mch_here'), step('service')]), 'mch_here'), true, 'Later ended: the last step counts');
    assert.equal(isReturn({ status: 'delegated', turn: 'agent' }, back([step('helper')]), 'mch_here'), true, 'a loop helper returned it');
    assert.equal(isReturn(snoozed, back([step('person', 'mch_here')]), undefined), true, 'this computer unknown: told');
    assert.equal(byThePersonHere({}, 'mch_here'), false, 'a light card has no history');
  });

  it('buttons: the options of a small single choice, Approve/Decline for an approval', () => {
    const set = buttonSet(card());
    assert.deepEqual(set, { kind: 'answers', answers: [{ label: 'Postgres', answer: { choiceIds: ['pg'] } }, { label: 'SQLite', answer: { choiceIds: ['sq'] } }] });
    assert.deepEqual(buttonSet(card({ kind: 'approval', options: undefined })), {
      kind: 'answers', answers: [{ label: 'Approve', answer: { approved: true } }, { label: 'Decline', answer: { approved: false } }],
    });
  });

  it('Open instead: more than three options, several choices, high stakes, other kinds, labels that shorten alike', () => {
    const four = [1, 2, 3, 4].map((i) => ({ id: `o${i}`, label: `Option ${i}` }));
    assert.deepEqual(buttonSet(card({ options: four })), { kind: 'open' });
    assert.equal(buttonSet(card({ options: four.slice(0, 3) })).kind, 'answers', 'three still fit');
    assert.deepEqual(buttonSet(card({ multi: true })), { kind: 'open' });
    assert.deepEqual(buttonSet(card({ highStakes: true })), { kind: 'open' });
    assert.deepEqual(buttonSet(card({ kind: 'approval', highStakes: true })), { kind: 'open' });
    for (const kind of ['text', 'questions', 'failure', 'update', 'something-new']) assert.deepEqual(buttonSet(card({ kind })), { kind: 'open' }, kind);
    assert.deepEqual(buttonSet(card({ options: [] })), { kind: 'open' });
    const twins = [{ id: 'a', label: `${'x'.repeat(40)} one` }, { id: 'b', label: `${'x'.repeat(40)} two` }];
    assert.deepEqual(buttonSet(card({ options: twins })), { kind: 'open' }, 'two buttons that read the same');
  });

  it('a loop helper\'s proposal: "Accept proposal" answers with it, in the card\'s words; one that does not fit opens', () => {
    const helper = { assistantId: 'as_h' };
    const proposed = card({ proposal: { helper, choiceIds: ['sq'], note: { text: 'smaller' } } });
    assert.deepEqual(buttonSet(proposed), {
      kind: 'answers',
      answers: [{ label: 'Accept proposal', answer: { choiceIds: ['sq'], note: { text: 'smaller' }, via: 'text' }, said: 'Choose SQLite. Note: smaller' }],
    });
    assert.deepEqual(buttonSet(card({ proposal: { helper, choiceIds: ['nope'] } })), { kind: 'open' }, 'an option the card does not offer');
    assert.deepEqual(buttonSet(card({ highStakes: true, proposal: { helper, choiceIds: ['sq'] } })), { kind: 'open' });
    const c = card({ assistant: { id: 'as_1', name: 'Claude', app: 'claude-code' }, proposal: { helper, choiceIds: ['sq'] } });
    assert.equal(notificationText(c, undefined, true), 'Claude: back to you: Which database? · the helper proposes: Choose SQLite.');
    assert.equal(proposalWords(card(), 60), undefined);
    const hostile = card({ options: [{ id: 'h', label: '[x](command:rm) $(zap)' }], proposal: { helper, choiceIds: ['h'], note: { text: '[y](command:z)' } } });
    assert.ok(!live(notificationText(hostile, undefined, true)));
    assert.ok(!live(answeredText(hostile, (buttonSet(hostile) as { answers: { said: string }[] }).answers[0]!.said, 5)));
  });

  it('answers only over words shown whole: a title, a summary or a proposal that would be cut leaves Open only', () => {
    const long = 'Run the cleanup script on the build host now that the release branch is cut and tagged; it frees disk';
    assert.ok(long.length > 100);
    assert.deepEqual(buttonSet(card({ kind: 'approval', title: long })), { kind: 'open' }, 'a title cut at 100 characters');
    assert.equal(buttonSet(card({ kind: 'approval', title: long.slice(0, 100) })).kind, 'answers', 'a title of 100 characters is shown whole');
    // The summary is shown, whole, or the notification does not answer.
    const summary = 'and then force-push main';
    const text = notificationText(card({ kind: 'approval', title: 'Clean up?', summary }), undefined, false);
    assert.ok(text.endsWith(summary), text);
    assert.equal(buttonSet(card({ kind: 'approval', title: 'Clean up?', summary })).kind, 'answers');
    assert.deepEqual(buttonSet(card({ kind: 'approval', title: 'Clean up?', summary: 'x'.repeat(390) + ' force-push main and delete the staging database' })), { kind: 'open' });
    // A CLI's one-line command as the bridge writes it (labels, the command's block, the model's
    // why, the folder) is shown whole and answered there, as before #52's labels made it longer.
    const asked = permissionCard('claude-code', { tool_name: 'Bash', tool_input: { command: 'touch /tmp/real-claude-MFuyF3/deployed.txt && echo "deployed to staging"', description: 'Deploy to staging' }, cwd: '/tmp/real-claude-MFuyF3/shop' });
    const bash = card({ kind: 'approval', title: asked.title, summary: asked.summary });
    assert.ok(summaryOneLine(asked.summary).length > 160, summaryOneLine(asked.summary));
    assert.ok(notificationText(bash, 'claude: shop', false).endsWith(summaryOneLine(asked.summary)), 'its summary whole');
    assert.equal(buttonSet(bash).kind, 'answers');
    // A helper's proposal cut at 120 characters is never accepted in one press (the probe's hidden tail).
    const helper = { assistantId: 'as_h' };
    const hidden = card({ kind: 'text', title: 'What next?', options: undefined, proposal: { helper, text: `${'Tidy the repository, rebase the feature branches and rerun the tests; '.repeat(2)}then force-push main and delete the staging database` } });
    const shown = notificationText(hidden, undefined, true);
    assert.doesNotMatch(shown, /delete the staging database/, 'the tail is not shown');
    assert.deepEqual(buttonSet(hidden), { kind: 'open' }, 'so it is not accepted from the notification');
  });

  it('labels are shown whole: a label longer than a button, or one that reads as the notification\'s own button, leaves Open only', () => {
    assert.deepEqual(buttonSet(card({ options: [{ id: 'a', label: 'Use the managed Postgres of the staging cluster' }, { id: 'b', label: 'SQLite' }] })), { kind: 'open' });
    for (const label of ['Open', ' open ', 'OPEN!', 'Ｏｐｅｎ', 'Show Terminal', 'show-terminal', 'Undo', 'Accept proposal', 'Approve', 'decline.', '...']) {
      assert.deepEqual(buttonSet(card({ options: [{ id: 'a', label }, { id: 'b', label: 'SQLite' }] })), { kind: 'open' }, label);
    }
    assert.deepEqual(buttonSet(card({ options: [{ id: 'a', label: 'Postgres' }, { id: 'b', label: 'postgres.' }] })), { kind: 'open' }, 'two that read the same');
  });

  it('labels are shortened to ~30 characters and made inert', () => {
    const long = shortLabel('Use the managed Postgres of the staging cluster');
    assert.ok(long.length <= 30 && long.endsWith('…'), long);
    const [hostile] = (buttonSet(card({ options: [{ id: 'h', label: '[x](command:rm) $(zap)' }] })) as { answers: { label: string }[] }).answers;
    assert.ok(hostile && !live(hostile.label), hostile?.label);
    assert.equal(shortLabel('a\nb\u202ec'), 'a b[U+202E]c', 'one line, the bidi override shown, not obeyed');
  });

  it('who and where: the assistant (and agent) and the terminal, as plain text', () => {
    const c = card({ assistant: { id: 'as_1', name: 'Claude', app: 'claude-code' }, agent: { id: 'ag_1', name: 'main' } });
    assert.equal(who(c), 'Claude · main');
    assert.equal(notificationText(c, 'api server', false), 'Claude · main (terminal "api server") asks: Which database?');
    assert.equal(notificationText(c, undefined, true), 'Claude · main: back to you: Which database?');
    assert.equal(notificationText(card(), 'zsh', false), 'Terminal "zsh" asks: Which database?');
    assert.equal(notificationText(card(), undefined, false), 'An assistant asks: Which database?');
    const hostile = notificationText(card({ title: HOSTILE, assistant: { id: 'a', name: '[me](command:x)', app: 'x' } }), '$(zap) [t](command:y)', false);
    assert.ok(!live(hostile), hostile);
    assert.ok(hostile.includes('Deploy?') && hostile.includes('[Open card]'), 'what the sender wrote stays readable');
  });

  it('after a press: what was answered and the seconds of the hold', () => {
    assert.equal(answeredText(card(), 'Postgres', 5), 'Answered "Which database?" with Postgres. The assistant hears it in 5 s.');
    assert.ok(!live(answeredText(card({ title: HOSTILE }), '[x](command:y)', 5)));
    assert.equal(answeredText(card(), 'Choose SQLite.', 4), 'Answered "Which database?" with Choose SQLite. The assistant hears it in 4 s.', 'one full stop');
  });

  it('several blocking cards together: how many more wait and the next one\'s title, plain; an option dressed as "Open Next" leaves Open only', () => {
    assert.equal(moreWaitingText(1, 'Deploy?'), '1 more blocking card waits; next: Deploy?');
    assert.equal(moreWaitingText(3, 'Deploy?'), '3 more blocking cards wait; next: Deploy?');
    assert.ok(!live(moreWaitingText(2, HOSTILE)));
    // The notification's own words first; `more` counts the cards after the next one.
    assert.equal(withMoreWaiting('Claude asks: Merge?', { more: 1, title: 'Deploy?' }), 'Claude asks: Merge? · 2 more blocking cards wait; next: Deploy?');
    assert.equal(withMoreWaiting('Claude asks: Merge?', undefined), 'Claude asks: Merge?');
    const c = card({ kind: 'choice', options: [{ id: 'a', label: 'open next' }, { id: 'b', label: 'Skip' }] });
    assert.deepEqual(buttonSet(c), { kind: 'open' });
  });

  it('the cards told once a notification ends (#38): "N more wait", blocking only when every one counted blocks; plain', () => {
    assert.equal(stillWaitingText({ more: 0, title: 'Deploy?' }), 'Assistant Cards: 1 more blocking card waits; next: Deploy?');
    assert.equal(stillWaitingText({ more: 2, title: 'Deploy?', allBlocking: false }), 'Assistant Cards: 3 more cards wait; next: Deploy?');
    assert.equal(moreWaitingText(1, 'Lint?', false), '1 more card waits; next: Lint?');
    assert.equal(withMoreWaiting('Claude asks: Merge?', { more: 0, title: 'Lint?', allBlocking: false }), 'Claude asks: Merge? · 1 more card waits; next: Lint?');
    assert.ok(!live(stillWaitingText({ more: 1, title: HOSTILE, allBlocking: false })));
  });
});
