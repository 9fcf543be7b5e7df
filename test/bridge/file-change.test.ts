// #54: Edit, MultiEdit and Write cards show the change as a diff, while #52's rules hold: every
// key of the input is on the card, and a key shown through the diff is there whole (F3); the diff's
// marks stand in the gutter, where no model's text reaches, so a line of a file cannot pose as a
// diff line or as the card's own words, and the display counts its lines, blank runs and long lines
// (F4). Plain Node: the card is the bridge's pure function of the hook's event, plus a read of the
// file a Write replaces (a temp folder here).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { permissionCard } from '../../src/bridge/permission-card';
import { MAX_SHOWN } from '../../src/bridge/file-change';
import { MAX_BYTES } from '../../src/bridge/file-now';
import { summaryParts, type SummaryPart } from '../../src/shared/summary-blocks';

const card = (tool: string, input: Record<string, unknown>, cwd = '/home/me/shop') => permissionCard('claude-code', { tool_name: tool, tool_input: input, cwd }).summary ?? '';

/** The diff lines under the card's own label `label` (the next run of gutter lines), as [mark, text]. */
function diffAfter(summary: string, label: string): [string, string][] {
  const lines = summary.split('\n');
  const at = lines.findIndex((l) => l === label);
  assert.ok(at >= 0, `the label "${label}" is on the card:\n${summary}`);
  const out: [string, string][] = [];
  for (const l of lines.slice(at + 1)) {
    if (!/^\u2502[-+ ]/.test(l)) break;
    out.push([l[1]!, l.slice(3)]);
  }
  return out;
}

/** Each side of a diff, read back from its lines: kept and removed lines are the old text, kept and added the new. */
const sides = (d: [string, string][]) => ({
  before: d.filter(([m]) => m !== '+').map(([, t]) => t).join('\n'),
  after: d.filter(([m]) => m !== '-').map(([, t]) => t).join('\n'),
});

const EDIT_LABEL = 'Change, line by line (old_string → new_string; - removed, + added):';
const diffParts = (summary: string) => summaryParts(summary).filter((p): p is Extract<SummaryPart, { kind: 'quoted' }> => p.kind === 'quoted' && p.diff !== undefined);

describe('file tools\' cards show the change as a diff (#54), every key whole (#52 F3)', () => {
  let dir = '';
  beforeEach(() => { dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'file-change-'))); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('Edit: old_string → new_string as one diff, kept lines unmarked; both strings read back whole from it; the file named', () => {
    const input = { file_path: '/home/me/shop/src/app.ts', old_string: 'const a = 1;\nconst b = 2;\nconst c = 3;', new_string: 'const a = 1;\nconst b = 20;\nconst c = 3;\nconst d = 4;' };
    const s = card('Edit', input);
    const d = diffAfter(s, EDIT_LABEL);
    assert.deepEqual(d, [[' ', 'const a = 1;'], ['-', 'const b = 2;'], ['+', 'const b = 20;'], [' ', 'const c = 3;'], ['+', 'const d = 4;']]);
    assert.deepEqual(sides(d), { before: input.old_string, after: input.new_string }, 'old_string and new_string, whole, from the diff');
    assert.match(s, /^File \(file_path\): \/home\/me\/shop\/src\/app\.ts$/m);
    assert.doesNotMatch(s, /Replace \(old_string\)|With \(new_string\)/, 'no longer two blocks');
    const [part] = diffParts(s);
    assert.deepEqual(part?.diff, { removed: 1, added: 2 });
    assert.equal(part?.count, 5);
    assert.deepEqual(part?.lines.map((l) => l.change), ['kept', 'removed', 'added', 'kept', 'added']);
  });

  it('Edit with replace_all: the diff, and "Every occurrence" named', () => {
    const s = card('Edit', { file_path: '/p/a.ts', old_string: 'foo', new_string: 'bar', replace_all: true });
    assert.deepEqual(diffAfter(s, EDIT_LABEL), [['-', 'foo'], ['+', 'bar']]);
    assert.match(s, /^Every occurrence \(replace_all: true\)$/m);
    assert.match(card('Edit', { file_path: '/p/a.ts', old_string: 'foo', new_string: 'bar', replace_all: false }), /^replace_all: false$/m);
  });

  it('Edit with an empty old_string: every line added, and the card says old_string is empty; an empty new_string likewise', () => {
    const s = card('Edit', { file_path: '/p/new.ts', old_string: '', new_string: 'line 1\nline 2\n' });
    assert.deepEqual(diffAfter(s, EDIT_LABEL), [['+', 'line 1'], ['+', 'line 2'], ['+', '']], 'the last line break is an empty last line, as a quoted block shows it');
    assert.match(s, /^old_string is empty$/m);
    const del = card('Edit', { file_path: '/p/a.ts', old_string: 'gone', new_string: '' });
    assert.deepEqual(diffAfter(del, EDIT_LABEL), [['-', 'gone']]);
    assert.match(del, /^new_string is empty$/m);
  });

  it('Edit with CRLF: a change of line ends alone is a changed line, and the card names each side\'s breaks', () => {
    const s = card('Edit', { file_path: '/p/a.txt', old_string: 'one\r\ntwo\r\nthree', new_string: 'one\ntwo\nthree' });
    assert.deepEqual(diffAfter(s, EDIT_LABEL), [['-', 'one'], ['-', 'two'], ['+', 'one'], ['+', 'two'], [' ', 'three']]);
    assert.match(s, /^Line breaks \(old_string\): 2 × CRLF \(\\r\\n\)$/m);
    assert.match(s, /^Line breaks \(new_string\): 2 × LF \(\\n\)$/m);
    const same = card('Edit', { file_path: '/p/a.txt', old_string: 'a\r\nb', new_string: 'a\r\nc' });
    assert.deepEqual(diffAfter(same, EDIT_LABEL), [[' ', 'a'], ['-', 'b'], ['+', 'c']], 'CRLF on both sides is not a change');
    assert.doesNotMatch(card('Edit', { file_path: '/p/a.txt', old_string: 'a\nb', new_string: 'a\nc' }), /Line breaks/, 'plain \\n breaks go unnamed');
  });

  it('MultiEdit: each edit its own diff, numbered, with its replace_all; an edit of another shape is listed as it came', () => {
    const s = card('MultiEdit', { file_path: '/p/a.ts', edits: [{ old_string: 'x\ny', new_string: 'x\nz' }, { old_string: 'p', new_string: 'q', replace_all: true }] });
    const paragraphs = s.split('\n\n');
    const first = paragraphs.find((p) => p.startsWith('Edit 1 of 2 (edits):'))!;
    const second = paragraphs.find((p) => p.startsWith('Edit 2 of 2 (edits):'))!;
    assert.deepEqual(diffAfter(first, EDIT_LABEL), [[' ', 'x'], ['-', 'y'], ['+', 'z']]);
    assert.deepEqual(diffAfter(second, EDIT_LABEL), [['-', 'p'], ['+', 'q']]);
    assert.match(second, /Every occurrence \(replace_all: true\)$/);
    assert.match(card('MultiEdit', { file_path: '/p/a.ts', edits: [{ old_string: 'x', new_string: 'y', extra: 'kept' }] }), /Other input, as it came \(1 key\):\n│ \{\n│ {3}"edits": \[/);
  });

  it('Write of a new file: every line added, the content whole in the diff', () => {
    const content = '# Notes\n\nline three\n';
    const s = card('Write', { file_path: path.join(dir, 'notes.md'), content }, dir);
    const d = diffAfter(s, 'A new file: its content (content), every line added:');
    assert.ok(d.every(([m]) => m === '+'));
    assert.equal(sides(d).after, content, 'the content, whole');
    assert.doesNotMatch(s, /Content \(content\):/, 'shown once');
    assert.match(card('Write', { file_path: path.join(dir, 'empty.txt'), content: '' }, dir), /^content is empty$/m);
    // Gemini CLI's write_file takes the same keys and replaces the file too; an MCP tool's `content` may mean anything: its plain block.
    const gemini = permissionCard('gemini-cli', { tool_name: 'write_file', tool_input: { file_path: path.join(dir, 'g.md'), content: 'hi' }, cwd: dir }).summary!;
    assert.deepEqual(diffAfter(gemini, 'A new file: its content (content), every line added:'), [['+', 'hi']]);
    const mcp = card('mcp__notes__append', { file_path: path.join(dir, 'n.md'), content: 'hi' }, dir);
    assert.match(mcp, /^Content \(content\):\n│ hi$/m);
    assert.doesNotMatch(mcp, /new file/);
  });

  it('Write over an existing file in the folder: its changed lines with three kept around them, where they are, then the whole content', () => {
    const before = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    const after = [...before];
    after[4] = 'line 5, changed';
    after.splice(30, 0, 'new after 30');
    fs.writeFileSync(path.join(dir, 'a.txt'), `${before.join('\n')}\n`);
    const content = `${after.join('\n')}\n`;
    const s = card('Write', { file_path: path.join(dir, 'a.txt'), content }, dir);
    assert.match(s, /^Change to the file on this computer \(40 lines now\), its changed lines \(- removed, \+ added\):$/m);
    assert.deepEqual(diffAfter(s, 'At line 2:'), [[' ', 'line 2'], [' ', 'line 3'], [' ', 'line 4'], ['-', 'line 5'], ['+', 'line 5, changed'], [' ', 'line 6'], [' ', 'line 7'], [' ', 'line 8']]);
    assert.deepEqual(diffAfter(s, 'At line 28:'), [[' ', 'line 28'], [' ', 'line 29'], [' ', 'line 30'], ['+', 'new after 30'], [' ', 'line 31'], [' ', 'line 32'], [' ', 'line 33']]);
    assert.doesNotMatch(s.slice(0, s.indexOf('Content (content):')), /line 15/, 'far kept lines are left out of the diff...');
    assert.ok(s.includes(`Content (content):\n${content.split('\n').map((l) => `\u2502 ${l}`).join('\n')}`), '...and the content stands whole below it');
    assert.match(card('Write', { file_path: path.join(dir, 'a.txt'), content: `${before.join('\n')}\n` }, dir), /^The content \(content\) is the same as the file on this computer now$/m);
  });

  it('Write over a file outside the folder it works in, a link out of it, one too large, or not text: not compared, said why, the content whole', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'file-change-out-'));
    try {
      fs.writeFileSync(path.join(outside, 'id_rsa'), 'SECRET KEY TEXT');
      fs.symlinkSync(path.join(outside, 'id_rsa'), path.join(dir, 'link'));
      for (const file of [path.join(outside, 'id_rsa'), path.join(dir, 'link'), path.relative(dir, path.join(outside, 'id_rsa'))]) {
        const s = card('Write', { file_path: file, content: 'new' }, dir);
        assert.match(s, /^Not compared with the file on this computer: it is outside the folder the assistant works in$/m, file);
        assert.doesNotMatch(s, /SECRET/, 'the file\'s text never goes on the card');
        assert.match(s, /^Content \(content\):\n│ new$/m);
      }
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
    fs.writeFileSync(path.join(dir, 'big.txt'), 'x'.repeat(MAX_BYTES + 1));
    assert.match(card('Write', { file_path: path.join(dir, 'big.txt'), content: 'y' }, dir), /^Not compared with the file on this computer: it is larger than 512 KB$/m);
    fs.writeFileSync(path.join(dir, 'bin'), Buffer.from([0x89, 0x50, 0x00, 0xff]));
    assert.match(card('Write', { file_path: path.join(dir, 'bin'), content: 'y' }, dir), /it is not UTF-8 text$/m);
    fs.mkdirSync(path.join(dir, 'sub'));
    assert.match(card('Write', { file_path: path.join(dir, 'sub'), content: 'y' }, dir), /it is not a file$/m);
  });

  it('Write over a huge file: the diff stops at its bound and counts what it leaves out; the content stands whole below', () => {
    const n = 5_000;
    fs.writeFileSync(path.join(dir, 'huge.txt'), Array.from({ length: n }, (_, i) => `old ${i}`).join('\n'));
    const content = Array.from({ length: n }, (_, i) => `new ${i}`).join('\n');
    const s = card('Write', { file_path: path.join(dir, 'huge.txt'), content }, dir);
    const shown = s.split('\n').filter((l) => /^\u2502[-+]/.test(l)).length;
    assert.equal(shown, MAX_SHOWN, 'the diff shows its bound of lines');
    assert.match(s, new RegExp(`^${2 * n - MAX_SHOWN} more changed lines are not shown here: the whole content is below$`, 'm'));
    assert.ok(s.endsWith(`\u2502 new ${n - 1}\n\nIn: ${dir}`), 'the whole content, to its last line, then the folder');
  });

  it('F4: a file\'s line that looks like a diff line or the card\'s words stays inside its block: the marks are the gutter\'s', () => {
    const s = card('Edit', { file_path: '/p/a.md', old_string: 'x', new_string: '+ added by us\n- removed\nIn: /fake\n\u2502- forged' });
    const [part] = diffParts(s);
    assert.deepEqual(part?.diff, { removed: 1, added: 4 }, 'one removed line, four added: the text\'s own marks change nothing');
    assert.deepEqual(part?.lines.map((l) => ('text' in l ? l.text : l)), ['x', '+ added by us', '- removed', 'In: /fake', '\u2502- forged']);
    const words = summaryParts(s).filter((p) => p.kind === 'words').flatMap((p) => p.lines.map((l) => ('text' in l ? l.text : '')));
    assert.deepEqual(words.filter((w) => w.startsWith('In:')), ['In: /home/me/shop']);
    // A command's quoted lines never become a diff block.
    assert.deepEqual(summaryParts(permissionCard('claude-code', { tool_name: 'Bash', tool_input: { command: '- a\n+ b' } }).summary).filter((p) => p.kind === 'quoted').map((p) => p.kind === 'quoted' && p.diff), [undefined]);
  });

  it('F4: in a diff, runs of blank lines are one counted mark of their side, and long lines are marked', () => {
    const s = card('Edit', { file_path: '/p/a', old_string: 'a', new_string: `a${'\n'.repeat(60)}curl x | sh\n${'y'.repeat(300)}` });
    const [part] = diffParts(s);
    assert.deepEqual(part?.lines, [
      { text: 'a', change: 'kept' },
      { blank: 59, change: 'added' },
      { text: 'curl x | sh', change: 'added' },
      { text: 'y'.repeat(300), long: 300, change: 'added' },
    ]);
  });
});
