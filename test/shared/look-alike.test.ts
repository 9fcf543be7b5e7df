// What you see is what you answer (#37): a notification's answer button never looks like one of
// its own, and two buttons that look alike are not offered. The look-alike list is the one the
// outside review ran against main (each became an answering button beside the real Open).
import * as assert from 'node:assert/strict';
import type { Card } from '../../src/api/schemas';
import { buttonSet, imitatesOwnButton } from '../../src/shared/notify-rules';
import { mixedScripts, scriptsOf, skeleton } from '../../src/shared/look-alike';

const choice = (labels: string[], over: Partial<Card> = {}): Card => ({
  id: 'req_1', version: 1, status: 'pending', turn: 'you', kind: 'choice', title: 'Which one?',
  options: labels.map((label, i) => ({ id: `o${i}`, label })), ...over,
});

/** label, what it imitates, how (each was run against main). */
const LOOK_ALIKES: readonly [string, string, string][] = [
  ['\u041Epen', 'Open', 'Cyrillic capital O'],
  ['\u039Fpen', 'Open', 'Greek capital Omicron'],
  ['Op\u0435n', 'Open', 'Cyrillic small e'],
  ['Open\u3164', 'Open', 'a Hangul filler (a blank letter)'],
  ['Open\uFFA0', 'Open', 'a halfwidth Hangul filler'],
  ['\u1D0F\u1D18\u1D07\u0274', 'Open', 'Latin small capitals'],
  ['Und\u043E', 'Undo', 'Cyrillic small o'],
  ['\u0410pprove', 'Approve', 'Cyrillic capital A'],
  ['Sh\u043Ew Terminal', 'Show Terminal', 'Cyrillic small o'],
  ['\uFF2F\uFF50\uFF45\uFF4E', 'Open', 'fullwidth (NFKC)'],
  ['0pen', 'Open', 'digit zero for O'],
  ['O\u200Bpen', 'Open', 'a zero-width space'],
  ['Op\u00E9n', 'Open', 'a mark on a letter'],
  ['DecIine', 'Decline', 'capital I for l'],
  ['Acc\u0435pt proposal', 'Accept proposal', 'Cyrillic small e'],
  ['\u{1D40E}pen', 'Open', 'mathematical bold O (NFKC)'],
];

describe('look-alike buttons (UTS #39 skeletons, mixed scripts, hidden characters)', () => {
  for (const [label, ours, how] of LOOK_ALIKES) {
    it(`${JSON.stringify(label)} (${how}) reads as "${ours}": no answer buttons, Open only`, () => {
      assert.equal(imitatesOwnButton(label), true);
      assert.deepEqual(buttonSet(choice([label, 'Postgres'])), { kind: 'open' });
    });
  }

  it('two options that look the same are not told apart: "Yes" and "Y\u0435s", "rn" and "m"', () => {
    assert.deepEqual(buttonSet(choice(['Yes', 'Y\u0435s'])), { kind: 'open' });
    assert.deepEqual(buttonSet(choice(['\u0423\u0435\u0455', 'Yes'])), { kind: 'open' }, 'whole-script Cyrillic "Yes"');
    assert.deepEqual(buttonSet(choice(['rn', 'm'])), { kind: 'open' }, '"rn" and "m"');
    assert.equal(skeleton('\u0423\u0435\u0455'), skeleton('Yes'));
  });

  it('labels in one script, or Latin with Han and kana, stay buttons', () => {
    for (const labels of [['Postgres', 'SQLite'], ['D\u00E9ployer', 'Annuler'], ['\u0414\u0430', '\u041D\u0435\u0442'], ['\u03BD\u03B1\u03B9', '\u03CC\u03C7\u03B9'], ['\u65E5\u672C\u8A9E font', '\u3072\u3089\u304C\u306A'], ['v2.1 (beta)', 'v2.0']]) {
      assert.equal(buttonSet(choice(labels)).kind, 'answers', labels.join(' / '));
    }
  });

  it('scripts: Common and Inherited do not count; Latin with Cyrillic or Greek is mixed; an unknown script is doubt', () => {
    assert.deepEqual([...scriptsOf('Open 2.0!')], ['Latin']);
    assert.equal(mixedScripts('\u041Epen'), true);
    assert.equal(mixedScripts('Op\u03B5n'), true);
    assert.equal(mixedScripts('\u65E5\u672C\u8A9E \u304B\u306A Kana'), false);
    assert.equal(mixedScripts('\u{10300}pen'), true, 'Old Italic: not a script known here');
  });

  it('the skeleton folds case, NFKC, marks, spaces and punctuation, and drops default-ignorables', () => {
    assert.equal(skeleton('  Show-terminal! '), skeleton('Show Terminal'));
    assert.equal(skeleton('Show Terminal'), skeleton('SHOW TERMINAL'));
    assert.equal(skeleton('O\u00ADp\u2060e\uFEFFn'), 'open');
    assert.equal(skeleton('!!!'), '');
  });
});

describe('the three labels the review still saw as answer buttons (#52)', () => {
  // All-Cyrillic "Ореп" (п reads as n), "Open now" and "Approved": each holds one of the
  // notification's own words as the eye reads them, so the notification offers Open only.
  for (const label of ['\u041E\u0440\u0435\u043F', 'Open now', 'Approved']) {
    it(`three labels: ${JSON.stringify(label)} is not an answer button; the notification offers Open only`, () => {
      assert.equal(imitatesOwnButton(label), true);
      assert.deepEqual(buttonSet(choice([label, 'Postgres'])), { kind: 'open' });
    });
  }

  it('three labels: words that only share letters with ours stay buttons', () => {
    assert.equal(buttonSet(choice(['Postgres', 'SQLite', 'Keep it'])).kind, 'answers');
    assert.equal(buttonSet(choice(['\u0414\u0430', '\u041D\u0435\u0442'])).kind, 'answers', 'Russian yes / no');
  });
});
