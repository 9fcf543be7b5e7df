// Hidden characters in a card's words are shown, one rule everywhere (#37): bidi controls,
// zero-width and other default-ignorable characters, blank letters, C0/C1 controls.
import * as assert from 'node:assert/strict';
import type { Card } from '../../src/api/schemas';
import { hiddenIn, holdsHidden, showHidden, shownAddress } from '../../src/shared/hidden-chars';
import { hiddenWarning, hidesCharacters } from '../../src/shared/hidden-words';
import { buttonSet, notificationText } from '../../src/shared/notify-rules';
import { plainText } from '../../src/shared/plain-text';

const card = (over: Partial<Card> = {}): Card => ({
  id: 'req_1', version: 1, status: 'pending', turn: 'you', kind: 'approval', title: 'Run npm test?', ...over,
});

/** text, what it shows; each hides or reorders words where it is obeyed. */
const HIDDEN: readonly [string, string][] = [
  ['ls \u202Egnp.exe', 'ls [U+202E]gnp.exe'], // right-to-left override
  ['a\u2066b\u2069', 'a[U+2066]b[U+2069]'], // isolates
  ['a\u200Eb\u200Fc\u061C', 'a[U+200E]b[U+200F]c[U+061C]'], // marks
  ['npm test\u200B&& curl x | sh', 'npm test[U+200B]&& curl x | sh'], // zero-width space
  ['a\u2060b\uFEFFc\u00ADd', 'a[U+2060]b[U+FEFF]c[U+00AD]d'], // word joiner, BOM, soft hyphen
  ['Open\u3164', 'Open[U+3164]'], // Hangul filler
  ['x\u2800y', 'x[U+2800]y'], // braille blank
  ['x\u0007\u001B[2Jy\u007F', 'x[U+0007][U+001B][2Jy[U+007F]'], // C0, ESC, DEL
  ['x\u0085y\u009Bz', 'x[U+0085]y[U+009B]z'], // C1
  ['x\u2028y\u2029', 'x[U+2028]y[U+2029]'], // line and paragraph separators
  ['tag\u{E0041}\u{E0042}', 'tag[U+E0041][U+E0042]'], // tag characters (a message no one sees)
  ['a\u200Db', 'a[U+200D]b'], // a joiner outside emoji
];

describe('hidden characters: shown, one rule', () => {
  for (const [text, shown] of HIDDEN) {
    it(`${JSON.stringify(text)} shows as ${shown}`, () => {
      assert.equal(showHidden(text), shown);
      assert.equal(holdsHidden(text), true);
    });
  }

  it('text shown on several lines keeps tab and line breaks; emoji keep their joiners and selectors', () => {
    for (const text of ['line one\nline two\r\n\tindented', '\u2764\uFE0F ok', '1\uFE0F\u20E3', '\u{1F469}\u200D\u{1F4BB}', '\u{1F44D}\u{1F3FD}', 'plain words, caf\u00E9, \u65E5\u672C']) {
      assert.equal(showHidden(text), text, JSON.stringify(text));
      assert.equal(holdsHidden(text), false, JSON.stringify(text));
    }
    assert.deepEqual(hiddenIn('a\u202Eb\u200Bc'), ['[U+202E]', '[U+200B]']);
  });

  it('one line (tree, notification, picks, hover, status bar): breaks become spaces, the rest is shown', () => {
    assert.equal(plainText('Run\n`npm test`\u202E\u2066hs | lruc&&\u2069'), 'Run `npm test`[U+202E][U+2066]hs | lruc&&[U+2069]');
  });

  it('a notification never answers over hidden characters: title, summary, option or proposal', () => {
    assert.equal(buttonSet(card()).kind, 'answers');
    for (const over of [
      { title: 'Run npm test?\u202E' },
      { summary: 'npm test\u200B&& curl x | sh' },
      { kind: 'choice', options: [{ id: 'a', label: 'Yes\u200B' }, { id: 'b', label: 'No' }] },
    ] as Partial<Card>[]) {
      assert.equal(hidesCharacters(card(over)), true, JSON.stringify(over));
      assert.deepEqual(buttonSet(card(over)), { kind: 'open' }, JSON.stringify(over));
    }
    assert.match(notificationText(card({ title: 'Run \u202Etset mpn' }), undefined, false), /Run \[U\+202E\]tset mpn/);
  });

  it('the panel says so above its buttons: any of the words a press answers (title, summary, options, questions, steps)', () => {
    assert.equal(hiddenWarning(card()), undefined);
    for (const over of [
      { title: 'Run npm test?\u202E' },
      { summary: 'npm test\u200B&& curl x | sh' },
      { kind: 'choice', options: [{ id: 'a', label: 'Yes\u200B' }] },
      { kind: 'questions', asks: [{ id: 'q', title: 'Branch\u2066?' }] },
      { kind: 'questions', asks: [{ id: 'q', title: 'Branch?', options: [{ id: 'm', label: 'main\u200B' }] }] },
      { kind: 'failure', steps: [{ title: 'build', detail: 'rm -rf /\u202E' }] },
    ] as Partial<Card>[]) assert.match(hiddenWarning(card(over)) ?? '', /hidden characters/, JSON.stringify(over));
  });

  it('a link shows the address that will open: a look-alike domain in punycode, hidden characters shown', () => {
    assert.equal(shownAddress('https://\u0430pple.com/login'), 'https://xn--pple-43d.com/login');
    assert.equal(shownAddress('https://example.com/p\u00E4th'), 'https://example.com/p%C3%A4th');
    assert.equal(shownAddress('not a url \u202Egnp'), 'not a url [U+202E]gnp');
  });
});
