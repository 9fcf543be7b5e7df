// The line comparison behind a file tool's diff (#54): exact on both sides (each text reads back
// from its kept and its removed or added lines), smallest where its table fits, and still exact
// past that bound. Plain Node, pure.
import { strict as assert } from 'node:assert';
import { lineBreaks, lineDiff, MAX_CELLS, splitLines, type DiffLine } from '../../src/bridge/line-diff';

const back = (d: DiffLine[]) => ({ before: d.filter((l) => l.op !== '+').map((l) => l.text).join('\n'), after: d.filter((l) => l.op !== '-').map((l) => l.text).join('\n') });
const ops = (d: DiffLine[]) => d.map((l) => `${l.op}${l.text}`);

describe('line diff (#54)', () => {
  it('lines as a quoted block shows them: "" has none, a last break ends with an empty line, every kind of break splits', () => {
    assert.deepEqual(splitLines(''), []);
    assert.deepEqual(splitLines('a\n'), [{ text: 'a', end: '\n' }, { text: '', end: '' }]);
    assert.deepEqual(splitLines('a\r\nb\rc\u2028d').map((l) => l.end), ['\r\n', '\r', '\u2028', '']);
  });

  it('the smallest change, with line numbers on each side; each side reads back whole', () => {
    const before = 'a\nb\nc\nd\ne';
    const after = 'a\nc\nX\nd\ne\nf';
    const d = lineDiff(before, after);
    assert.deepEqual(ops(d), [' a', '-b', ' c', '+X', ' d', ' e', '+f']);
    assert.deepEqual(d.find((l) => l.text === 'X'), { op: '+', text: 'X', newNo: 3 });
    assert.deepEqual(d.find((l) => l.text === 'd'), { op: ' ', text: 'd', oldNo: 4, newNo: 4 });
    assert.deepEqual(back(d), { before, after });
  });

  it('a line whose break changes (CRLF to LF) is a changed line; one whose break stays is kept', () => {
    assert.deepEqual(ops(lineDiff('a\r\nb\r\nc', 'a\r\nb\nc')), [' a', '-b', '+b', ' c']);
  });

  it('past MAX_CELLS the middle is removed whole, then added whole: not the smallest, still exact', () => {
    const n = Math.ceil(Math.sqrt(MAX_CELLS)) + 10;
    const before = ['head', ...Array.from({ length: n }, (_, i) => `o${i}`), 'tail'].join('\n');
    const after = ['head', ...Array.from({ length: n }, (_, i) => (i === 5 ? 'o5' : `n${i}`)), 'tail'].join('\n');
    const d = lineDiff(before, after);
    assert.deepEqual(ops(d).slice(0, 2), [' head', '-o0']);
    assert.equal(d.filter((l) => l.op === ' ').length, 2, 'only the common start and end are kept: o5 is not looked for');
    assert.deepEqual(back(d), { before, after });
  });

  it('line breaks named and counted, for the card', () => {
    assert.equal(lineBreaks('a\r\nb\r\nc\nd'), '2 × CRLF (\\r\\n), 1 × LF (\\n)');
    assert.equal(lineBreaks('a\u2028b'), '1 × U+2028');
    assert.equal(lineBreaks('one line'), '');
  });
});
