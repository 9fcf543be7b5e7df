// The host tier's file lists name real files: a renamed file would otherwise slip out of its part
// of the trusted window or out of the oldest VS Code's selections without a word.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alternativesOf, LEFT_OUT_ON_OLDEST, PARTLY_ON_OLDEST, unmatchedOnOldest } from '../editor/oldest-vscode';
import { inThisPart, SECOND_PART } from '../editor/window-parts';

const editorTests = path.resolve(__dirname, '..', 'editor');
const compiled = fs.readdirSync(editorTests).filter((f) => f.endsWith('.test.ts')).map((f) => f.replace(/\.ts$/, '.js'));

describe('host tier: the trusted window\'s parts and the oldest VS Code\'s selections', () => {
  it('every file they name is a host test file', () => {
    const named = [...SECOND_PART, ...Object.keys(LEFT_OUT_ON_OLDEST), ...Object.keys(PARTLY_ON_OLDEST)];
    assert.deepEqual(named.filter((f) => !compiled.includes(f)), []);
  });

  it('each part holds files; no part given runs all; a wrong part is refused', () => {
    assert.ok(compiled.filter((f) => inThisPart(f, '1')).length >= 5, 'the first part holds files');
    assert.ok(compiled.filter((f) => inThisPart(f, '2')).length >= 5, 'the second part holds files');
    assert.ok(compiled.every((f) => inThisPart(f, undefined)), 'without a part, every file runs');
    assert.throws(() => inThisPart(compiled[0]!, '3'), /wants 1 or 2, got "3"/);
  });

  it('a selection\'s alternatives are its top-level ones (groups, classes and escapes kept whole)', () => {
    assert.deepEqual(alternativesOf(/a|b(c|d)|e\(f|[|]g/).map((r) => r.source), ['a', 'b(c|d)', 'e\\(f', '[|]g']);
    assert.deepEqual(alternativesOf(/\((hc-dark|light-plus)\)/).map((r) => r.source), ['\\((hc-dark|light-plus)\\)']);
  });

  it('an alternative of a 1.93 selection that matches none of its file\'s titles is named (the host runner fails on it)', () => {
    // Titles as the runner sees them; one of notify's renamed.
    const titles = new Map<string, string[]>([
      ['panel-a11y.test.js', ['card panel accessibility no serious violation (hc-dark)', 'the same (dark-plus)']],
      ['notify.test.js', ['notify: a blocking choice', 'notify: answered from its notification, then undone', 'notify: says which terminal it was', 'notify: a command with a look-alike host']],
    ]);
    assert.deepEqual(unmatchedOnOldest(titles), ["oldest-vscode.ts: notify.test.js's runs /says which terminal asks/ matches none of its 4 tests (renamed?)"]);
    assert.deepEqual(unmatchedOnOldest(new Map()), [], 'files not loaded (another part, a grep) are not judged');
  });

  it('no file is both left out and partly run on the oldest VS Code', () => {
    assert.deepEqual(Object.keys(PARTLY_ON_OLDEST).filter((f) => f in LEFT_OUT_ON_OLDEST), []);
  });
});
