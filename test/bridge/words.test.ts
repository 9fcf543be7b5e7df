// The bridge's words in the person's language (#54 item 4): the card's title and labels come from
// the words file the extension writes into the bridge home; a missing file, a broken one, or a
// translation that lost a placeholder leaves the English, so the command is never dropped.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { permissionCard } from '../../src/bridge/permission-card';
import { questionCard } from '../../src/bridge/question-card';
import { BRIDGE_WORDS, say, usableWords, useWords, WORDS_FILE } from '../../src/bridge/words';

const DE: Record<string, string> = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'l10n', 'bundle.l10n.de.json'), 'utf8'));
const JA: Record<string, string> = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'l10n', 'bundle.l10n.ja.json'), 'utf8'));

describe('the bridge\'s words in the person\'s language', () => {
  afterEach(() => useWords(undefined));

  it('every message of the bridge has a German and a Japanese translation with the same placeholders', () => {
    for (const english of Object.values(BRIDGE_WORDS) as string[]) {
      for (const [lang, bundle] of [['de', DE], ['ja', JA]] as const) {
        assert.ok(bundle[english] && bundle[english] !== english, `${lang}: ${english}`);
      }
    }
    assert.equal(Object.keys(usableWords({ words: DE })).length, Object.keys(BRIDGE_WORDS).length);
  });

  it('a permission card in German and in Japanese: title, "Tool", the labels and "In"; the command and folder whole', () => {
    const req = { tool_name: 'Bash', tool_input: { command: 'npm test -- --grep checkout', description: 'Run the tests' }, cwd: '/home/ada/shop' };
    useWords(DE);
    const de = permissionCard('claude-code', req) as { title: string; summary: string };
    assert.equal(de.title, 'Claude Code möchte ausführen: npm test -- --grep checkout');
    assert.equal(de.summary.split('\n\n')[0], 'Werkzeug: Bash');
    assert.match(de.summary, /^Wird ausgeführt \(command\):\n│ npm test -- --grep checkout$/m);
    assert.match(de.summary, /^Warum, in den Worten des Assistenten \(description\):\n│ Run the tests$/m);
    assert.match(de.summary, /\n\nOrdner: \/home\/ada\/shop$/);
    useWords(JA);
    const ja = permissionCard('codex', { ...req, tool_input: { file_path: '/home/ada/shop/a.ts', content: 'x' }, tool_name: 'Write' }) as { title: string; summary: string };
    assert.equal(ja.title, 'Codex が a.ts への書き込みを求めています');
    assert.match(ja.summary, /^ツール: Write\n\nファイル \(file_path\): \/home\/ada\/shop\/a\.ts\n\n新しいファイル: 内容 \(content\)、すべての行を追加:\n│\+ x\n\n場所: \/home\/ada\/shop$/);
    assert.equal(questionCard('claude-code', [{ question: 'A?', options: [{ label: 'a' }], multiSelect: false }, { question: 'B?', options: [{ label: 'b' }], multiSelect: false }]).title, 'Claude Code から 2 件の質問');
  });

  it('#54: an Edit card\'s diff in German and in Japanese: the label, "is empty" and the line breaks translated; the marks and the lines as they came', () => {
    const req = { tool_name: 'Edit', tool_input: { file_path: '/w/a.txt', old_string: '', new_string: 'eins\r\nzwei' }, cwd: '/w' };
    useWords(DE);
    const de = permissionCard('claude-code', req).summary!;
    assert.match(de, /^Änderung, Zeile für Zeile \(old_string → new_string; - entfernt, \+ hinzugefügt\):\n│\+ eins\n│\+ zwei\nold_string ist leer\nZeilenumbrüche \(old_string\): keine\nZeilenumbrüche \(new_string\): 1 × CRLF \(\\r\\n\)$/m);
    useWords(JA);
    const ja = permissionCard('claude-code', req).summary!;
    assert.match(ja, /^変更、行ごと \(old_string → new_string、- 削除、\+ 追加\):\n│\+ eins\n│\+ zwei\nold_string は空です\n改行 \(old_string\): なし\n改行 \(new_string\): 1 × CRLF \(\\r\\n\)$/m);
  });

  it('a long command in a translated title is cut to leave the title within a notification\'s 100 characters', () => {
    useWords(JA);
    const title = permissionCard('gemini-cli', { tool_name: 'run_shell_command', tool_input: { command: `echo ${'word '.repeat(40)}` } }).title;
    assert.ok(title.length <= 100, `${title.length}: ${title}`);
    assert.ok(title.startsWith('Gemini CLI が run_shell_command での実行を求めています: echo word') && title.endsWith('…'), title);
  });

  it('a translation that drops or doubles a placeholder, or is not text, is not used: the English is', () => {
    useWords({ '{0} asks to run: {1}': '{0} möchte etwas ausführen', 'Tool': '', '{0} asks to edit {1}': '{0} {0} {1}', 'In': 'Ordner' });
    const card = permissionCard('claude-code', { tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, cwd: '/w' }) as { title: string; summary: string };
    assert.equal(card.title, 'Claude Code asks to run: rm -rf build', 'the command stays on the card');
    assert.ok(card.summary.startsWith('Tool: Bash'));
    assert.ok(card.summary.endsWith('Ordner: /w'), 'the good translation is used');
    assert.equal(say('edits', 'Codex', 'a.ts'), 'Codex asks to edit a.ts');
    assert.deepEqual(usableWords({ words: { 'Tool': 42 } }), {});
    assert.deepEqual(usableWords('nonsense'), {});
  });

  it('placeholders are filled once: an argument that looks like one stays as it came', () => {
    useWords(DE);
    assert.equal(say('runs', '{1}', 'echo {0}'), '{1} möchte ausführen: echo {0}');
  });

  it('read from the bridge home\'s words file; none, or one that does not parse: English', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-words-'));
    const saved = process.env.ASSISTANT_CARDS_HOME;
    process.env.ASSISTANT_CARDS_HOME = home;
    try {
      useWords(undefined);
      assert.equal(say('tool'), 'Tool', 'no file');
      fs.writeFileSync(path.join(home, WORDS_FILE), JSON.stringify({ language: 'de', words: DE }));
      useWords(undefined);
      assert.equal(say('tool'), 'Werkzeug');
      fs.writeFileSync(path.join(home, WORDS_FILE), '{"language": "de", "words": {');
      useWords(undefined);
      assert.equal(say('tool'), 'Tool', 'a broken file');
    } finally {
      if (saved === undefined) delete process.env.ASSISTANT_CARDS_HOME; else process.env.ASSISTANT_CARDS_HOME = saved;
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
