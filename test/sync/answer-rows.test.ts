// The Answers view's rows (src/sync/answer-rows.ts) and their words and export text
// (src/editor/answers/answer-words.ts): who from which app and computer, what by the option's
// words, when, how long it waited; search; JSON Lines and CSV, escaped, never a formula.
import { strict as assert } from 'node:assert';
import { Card } from '../../src/api/schemas';
import { newestFirst, rowMatches, rowOf } from '../../src/sync/answer-rows';
import { answersCsv, answersCsvAbout, answersJsonl, answerWords, csvCell, waitedWords, whenWords, whoWords, type ExportHeader } from '../../src/editor/answers/answer-words';
import { dateTime } from '../../src/shared/format';

const ASKED = '2026-11-20T10:00:00.000Z';
const laptop = { id: 'mch_laptop', name: 'laptop' };

function card(fields: Record<string, unknown>): Card {
  return Card.parse({
    id: 'req_1', version: 4, status: 'done', turn: 'agent', kind: 'choice', title: 'Which database?',
    options: [{ id: 'pg', label: 'Postgres' }, { id: 'sqlite', label: 'SQLite' }],
    assistant: { id: 'con_api', name: 'api', app: 'claude-code' }, area: { id: 'prj_api', name: 'API' }, machine: laptop,
    createdAt: ASKED, changedAt: '2026-11-20T10:20:00.000Z',
    history: [{ at: ASKED, type: 'asked', by: 'assistant' }],
    ...fields,
  });
}

const header: ExportHeader = {
  signedInAs: { name: 'Sandbox Person', email: 'person@sandbox.test', userId: 'usr_x' }, app: 'Assistant Cards', computer: 'laptop',
  from: ASKED, to: ASKED, filter: '', exportedAt: ASKED, rows: 1, messageIds: false, notRead: [],
};

describe('answer rows: who answered what, from where', () => {
  it('the person from an app on a computer: the option\'s words (not its id), when, and how long it waited', () => {
    const row = rowOf(card({
      answer: { choiceIds: ['sqlite'] },
      history: [
        { at: ASKED, type: 'asked', by: 'assistant' },
        { at: '2026-11-20T10:12:30.000Z', type: 'answered', by: 'person', app: 'app_vscode', appName: 'Assistant Cards', machine: laptop },
        { at: '2026-11-20T10:13:00.000Z', type: 'picked-up', by: 'assistant' },
      ],
    }));
    assert.equal(row.outcome, 'answered');
    assert.equal(whoWords(row.who), 'You, Assistant Cards on laptop');
    assert.equal(answerWords(row.answer, row.outcome), 'SQLite');
    assert.equal(row.at, '2026-11-20T10:12:30.000Z');
    assert.equal(waitedWords(row.waitedMs), '13 min');
    assert.equal(row.steps.length, 3);
  });

  it('the phone (an app with no computer), a helper, a webhook\'s resolve, a withdrawal, an undo and a put-off', () => {
    const phone = rowOf(card({ answer: { approved: false }, history: [{ at: ASKED, type: 'asked', by: 'assistant' }, { at: ASKED, type: 'answered', by: 'person', app: 'app_p', appName: 'Cards for phone' }] }));
    assert.equal(whoWords(phone.who), 'You, Cards for phone (no computer: phone or web)');
    assert.ok(rowMatches(phone, { who: ['phone'] }) && !rowMatches(phone, { who: ['person'] }));
    assert.equal(answerWords(phone.answer, phone.outcome), 'declined');
    const helper = rowOf(card({ answer: { choiceIds: ['pg'] }, history: [{ at: ASKED, type: 'delegated', by: 'person', machine: laptop }, { at: ASKED, type: 'helper-answered', by: 'helper', detail: 'reviewer' }] }));
    assert.equal(helper.outcome, 'helper-answered');
    assert.equal(whoWords(helper.who), 'Helper reviewer');
    assert.equal(answerWords(helper.answer, helper.outcome), 'Postgres');
    const hook = rowOf(card({ kind: 'update', history: [{ at: ASKED, type: 'notice', by: 'webhook', detail: 'deploys' }, { at: ASKED, type: 'resolved', by: 'webhook' }] }));
    assert.deepEqual([hook.outcome, whoWords(hook.who)], ['resolved', 'The webhook']);
    const gone = rowOf(card({ history: [{ at: ASKED, type: 'asked', by: 'assistant' }, { at: ASKED, type: 'withdrawn', by: 'assistant' }] }));
    assert.deepEqual([gone.outcome, answerWords(gone.answer, gone.outcome)], ['withdrawn', '']);
    const undone = rowOf(card({ status: 'pending', history: [{ at: ASKED, type: 'answered', by: 'person', machine: laptop }, { at: ASKED, type: 'undone', by: 'person', machine: laptop }] }));
    assert.equal(undone.outcome, 'undone');
    const later = rowOf(card({ status: 'snoozed', history: [{ at: ASKED, type: 'later', by: 'person', machine: laptop, detail: ASKED }] }));
    assert.equal(later.outcome, 'put-off');
  });

  it('hostile input: an entry of an unknown shape and an unknown `by` are shown as unknown, not dropped; ids not named by options say so', () => {
    const row = rowOf(card({
      answer: { choiceIds: ['gone', 7] },
      history: [{ at: ASKED, type: 'asked', by: 'assistant' }, { at: 5, type: ['x'] }, 'junk', { at: ASKED, type: 'answered', by: 'robot' }],
    }));
    assert.equal(row.steps.length, 4, 'nothing dropped');
    assert.deepEqual(row.steps.slice(1, 3).map((s) => s.type), ['unknown', 'unknown']);
    assert.equal(whoWords(row.who), 'unknown (robot)');
    assert.equal(answerWords(row.answer, row.outcome), 'an option no longer on the card');
    // A service that does not say what was answered: told, not guessed.
    assert.equal(answerWords(rowOf(card({ history: [{ at: ASKED, type: 'answered', by: 'person' }] })).answer, 'answered'), '(not told)');
    // Light: only what was asked is known.
    const light = rowOf({ id: 'req_2', version: 1, status: 'done', turn: 'agent', kind: 'choice', title: 'T', whole: false });
    assert.deepEqual([light.whole, light.outcome], [false, 'unknown']);
  });

  it('search: words of the question or the answer, assistant, area, computer (answered from or asking), who', () => {
    const row = rowOf(card({ answer: { choiceIds: ['pg'] }, history: [{ at: ASKED, type: 'answered', by: 'person', machine: { id: 'mch_desk', name: 'desk' } }] }));
    assert.ok(rowMatches(row, { words: 'postgres DATABASE' }));
    assert.ok(!rowMatches(row, { words: 'sqlite' }), 'an option not picked is not the answer');
    assert.ok(rowMatches(row, { assistants: ['con_api'], areas: ['prj_api'] }));
    assert.ok(!rowMatches(row, { areas: ['prj_web'] }));
    assert.ok(rowMatches(row, { machines: ['mch_desk'] }) && rowMatches(row, { machines: ['mch_laptop'] }) && !rowMatches(row, { machines: ['mch_x'] }));
    assert.ok(rowMatches(row, { who: ['person'] }) && !rowMatches(row, { who: ['helper'] }));
    // #38: words match the names of the assistant, area and computers too; the app is searched by.
    const named = rowOf(card({ title: 'T', history: [{ at: ASKED, type: 'answered', by: 'person', app: 'app_phone', appName: 'Phone app', machine: { id: 'mch_desk', name: 'desk' } }] }));
    for (const name of ['api', 'API', 'laptop', 'desk', 'claude-code']) assert.ok(rowMatches(named, { words: name }), name);
    assert.ok(!rowMatches(row, { words: 'tower' }));
    const fromPhone = rowOf(card({ history: [{ at: ASKED, type: 'answered', by: 'person', app: 'app_phone', appName: 'Phone app' }] }));
    assert.ok(rowMatches(fromPhone, { words: 'phone APP' }));
    assert.ok(rowMatches(fromPhone, { apps: ['app_phone'] }) && rowMatches(fromPhone, { apps: ['claude-code'] }), 'the answer\'s app, or the asking assistant\'s');
    assert.ok(!rowMatches(fromPhone, { apps: ['app_vscode', 'codex'] }));
    const older = rowOf(card({ id: 'req_0', history: [{ at: '2026-11-01T00:00:00Z', type: 'withdrawn', by: 'assistant' }] }));
    assert.deepEqual([older, row].sort(newestFirst).map((r) => r.id), ['req_1', 'req_0']);
  });
});

describe('answer export: JSON Lines and CSV', () => {
  const hostile = rowOf(card({
    title: '=HYPERLINK("http://x","click"), "quoted"\nsecond line',
    options: [{ id: 'a', label: '+SUM(1,2)' }, { id: 'b', label: '@cmd' }],
    answer: { choiceIds: ['a'], text: '-2+3' },
    history: [{ at: ASKED, type: 'asked', by: 'assistant' }, { at: ASKED, type: 'message', by: 'person', detail: 'msg_secret1' }, { at: ASKED, type: 'answered', by: 'person', appName: 'App', machine: laptop }],
  }));

  it('a CSV cell starting with = + - @ (or a tab) gets a leading \'; commas, quotes and line breaks are quoted', () => {
    assert.equal(csvCell('=1+1'), "'=1+1");
    assert.equal(csvCell('+1'), "'+1");
    assert.equal(csvCell('-1'), "'-1");
    assert.equal(csvCell('@x'), "'@x");
    assert.equal(csvCell('\t=x'), "'\t=x");
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('=a,"b"'), '"\'=a,""b"""');
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell(12), '12');
  });

  it('CSV: a plain table (the header row first), every row one line; the sign-in, range and filter in the file beside it; no formula, no message id unless asked', () => {
    const csv = answersCsv({ ...header, filter: 'words "db"' }, [hostile]);
    const lines = csv.trimEnd().split('\r\n');
    const cols = lines[0]!;
    assert.ok(cols.startsWith('card,asked,'), cols);
    assert.equal(lines.length, 2, 'the header row and one row');
    assert.ok(!cols.includes('messageIds'));
    const about = JSON.parse(answersCsvAbout({ ...header, filter: 'words "db"' }, 'a.csv')) as Record<string, unknown>;
    assert.deepEqual(about.signedInAs, header.signedInAs);
    assert.equal(about.filter, 'words "db"');
    assert.equal(about.from, header.from);
    assert.equal(about.table, 'a.csv');
    assert.deepEqual(about.columns, cols.split(','));
    const row = lines[lines.length - 1]!;
    assert.ok(row.startsWith('req_1,"\'=HYPERLINK(""http://x"",""click""), ""quoted"" second line"'), row);
    assert.ok(row.includes(',"\'+SUM(1,2); -2+3",'), 'the answer cell is not a formula');
    assert.ok(!csv.includes('msg_secret1'));
    assert.ok(!/token|Bearer|DPoP/i.test(csv));
    const withIds = answersCsv({ ...header, messageIds: true }, [hostile]);
    assert.ok(withIds.includes('msg_secret1'));
  });

  it('JSON Lines: a header line, then one record per row; message ids only when asked', () => {
    const text = answersJsonl(header, [hostile]);
    const [head, rec, ...rest] = text.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(rest.length, 0);
    assert.equal(head!.export, 'assistant-cards-answers');
    assert.deepEqual(head!.signedInAs, header.signedInAs);
    assert.equal(rec!.answer, '+SUM(1,2); -2+3');
    assert.equal(rec!.who, 'You, App on laptop');
    assert.equal(rec!.messageIds, undefined);
    assert.deepEqual(JSON.parse(answersJsonl({ ...header, messageIds: true }, [hostile]).split('\n')[1]!).messageIds, ['msg_secret1']);
  });
});

describe('answer export: the last characters (#37)', () => {
  // eslint-disable-next-line no-control-regex
  const HIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200b\u202a-\u202e\u2066-\u2069]/;
  const sly = rowOf(card({
    id: 'req_1', title: 'Deploy\u0085now\u2028\u202Etxt.exe',
    options: [{ id: 'a', label: 'Yes\u009B2J' }, { id: 'b', label: 'No' }],
    answer: { choiceIds: ['a'], text: 'ok\u2029' },
    history: [{ at: ASKED, type: 'asked', by: 'assistant' }, { at: ASKED, type: 'answ\u0085ered', by: 'person', appName: 'App\u2028', machine: { id: 'mch_laptop', name: 'lap\u200Btop' } }],
  }));
  const slyHeader: ExportHeader = { ...header, signedInAs: { name: 'Sandbox\u2028Person\u0085', userId: 'usr_x' }, filter: 'db\u2029', notRead: ['page\u0085 2'] };

  it('JSON Lines: no C1, no raw U+2028/U+2029, no hidden character in any field, the header too', () => {
    const text = answersJsonl(slyHeader, [sly]);
    assert.doesNotMatch(text.replace(/\n/g, ''), HIDDEN);
    const [head, rec] = text.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal((head!.signedInAs as { name: string }).name, 'Sandbox[U+2028]Person[U+0085]');
    assert.equal(rec!.asked, 'Deploy[U+0085]now[U+2028][U+202E]txt.exe');
    assert.ok(JSON.stringify(rec!.steps).includes('answ[U+0085]ered'), JSON.stringify(rec!.steps));
  });

  it('CSV: every cell through the one rule', () => {
    const csv = answersCsv(slyHeader, [sly]);
    assert.doesNotMatch(csv.replace(/\r\n/g, ''), HIDDEN);
    assert.ok(csv.includes('lap[U+200B]top'));
    assert.doesNotMatch(answersCsvAbout(slyHeader, 'x\u2028.csv').replace(/\n/g, ''), HIDDEN, 'the file beside it too');
  });
});

describe('answer words: when', () => {
  it('says a time as format.ts dateTime does, in the zone asked', () => {
    for (const zone of ['UTC', 'Asia/Tokyo', undefined]) assert.equal(whenWords(ASKED, zone), dateTime(ASKED, zone));
    assert.equal(whenWords('not a time', 'UTC'), '');
  });
});
