// Text a model wrote, quoted for a card (#52 F4): every line behind the gutter, whatever breaks it,
// blank ones too, so none of it can stand where the card's own words do.
import { strict as assert } from 'node:assert';
import { quoted } from '../../src/bridge/quoted-text';
import { summaryParts } from '../../src/shared/summary-blocks';

describe('quoted text (#52 F4)', () => {
  it('every line behind the gutter the display reads, whatever the break; blank lines kept', () => {
    assert.equal(quoted('a\r\nb\rc\u2028\nIn: /x'), '\u2502 a\n\u2502 b\n\u2502 c\n\u2502 \n\u2502 In: /x');
    assert.deepEqual(summaryParts(`Label:\n${quoted('- x\n+ y')}`)[1], { kind: 'quoted', count: 2, lines: [{ text: '- x' }, { text: '+ y' }] }, 'a quoted "- x" is text, not a diff line');
  });
});
