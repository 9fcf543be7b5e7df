import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lookOf } from '../../src/shared/card-view';
import { inert, plainLines, plainText, shownCode } from '../../src/shared/plain-text';
import type { CardListEntry } from '../../src/api/schemas';

// What VS Code itself reads as live syntax (vs/base/common/linkedText.ts and iconLabels.ts).
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const VSCODE_ICON = /\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)/gi;
const live = (s: string) => VSCODE_LINK.test(s) || VSCODE_ICON.test(s);

const HOSTILE = 'Deploy? [Open card](command:workbench.action.terminal.sendSequence?{"text":"id>pwned\\r"}) $(check) $(sync~spin) [x](https://evil.example)';

describe('plain text for the editor\'s own widgets', () => {
  beforeEach(() => { VSCODE_LINK.lastIndex = 0; VSCODE_ICON.lastIndex = 0; });

  it('a markdown link or a command link in card text is no link', () => {
    assert.ok(VSCODE_LINK.test(HOSTILE), 'the sample is live as written');
    VSCODE_LINK.lastIndex = 0;
    const shown = plainText(HOSTILE, 500);
    assert.equal(VSCODE_LINK.test(shown), false, shown);
    assert.ok(shown.includes('[Open card] (command:workbench.action.terminal.sendSequence'), 'the words stay readable');
  });

  it('$(icon) syntax in card text draws no icon', () => {
    const shown = plainText('Ship it $(check) now $(sync~spin)', 100);
    assert.equal(VSCODE_ICON.test(shown), false, shown);
    assert.equal(shown, 'Ship it $ (check) now $ (sync~spin)');
  });

  it('a newline between ] and ( does not bring the link back, and truncation cannot either', () => {
    assert.equal(live(plainText('[a]\n(command:x)', 100)), false);
    assert.equal(live(plainText(`${'x'.repeat(8)}[a](command:x)`, 12)), false);
  });

  it('a device code shows as the letters, digits and dashes a code is made of: no link, no icon', () => {
    assert.equal(shownCode('WDJB-MJHT'), 'WDJB-MJHT');
    assert.equal(shownCode('[x](command:workbench.action.quit) $(zap)'), 'xcommandworkbenchactionquitzap');
  });

  it('our own sentences pass through unchanged', () => {
    const s = 'Assistant Cards: answered "Keep it". The assistant hears it in 5 s.';
    assert.equal(inert(s), s);
  });

  it('tooltips are plain lines, each inert', () => {
    assert.equal(plainLines(['a $(x)', undefined, '', '[l](command:y)']), 'a $ (x)\n[l] (command:y)');
  });

  it('a card\'s tree label, description and tooltip carry no link and no icon', () => {
    const card = {
      id: 'req_1', kind: 'update', status: 'pending', turn: 'you', version: 1, title: HOSTILE, summary: HOSTILE,
      webhook: { id: 'whk_1', name: '$(warning) [hook](command:x)' }, from: '$(x)', urgency: '$(flame)',
    } as unknown as CardListEntry;
    const look = lookOf(card, Date.now());
    for (const [k, v] of Object.entries({ label: look.label, description: look.description, tooltip: look.tooltip })) {
      VSCODE_LINK.lastIndex = 0; VSCODE_ICON.lastIndex = 0;
      assert.equal(live(v), false, `${k}: ${v}`);
    }
  });
});

describe('every editor sink of service text goes through plain-text', () => {
  // The repository root, from test/shared here.
  const root = path.resolve(__dirname, '..', '..');
  const editorFiles = () => fs.readdirSync(path.join(root, 'src', 'editor'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts')).map((f) => ({ f, text: fs.readFileSync(path.join(root, 'src', 'editor', f), 'utf8') }));

  it('notifications are shown only through say (which makes their text inert)', () => {
    const direct = editorFiles().filter(({ f, text }) => f !== path.join('base', 'say.ts') && /\bshow(Information|Warning|Error)Message\s*\(/.test(text)).map(({ f }) => f);
    assert.deepEqual(direct, [], 'files calling showInformationMessage/showWarningMessage/showErrorMessage directly');
  });

  it('no MarkdownString tooltips (they would render links and icons from names)', () => {
    assert.deepEqual(editorFiles().filter(({ text }) => /new vscode\.MarkdownString/.test(text)).map(({ f }) => f), []);
  });

  it('no notification is modal (it would take the keyboard), but the confirmations a person\'s own press asks for', () => {
    // One modal: say.confirm, asked only when the person opened a link to an address on this
    // computer, pressed Connect for an assistant CLI (which writes that CLI's settings), or a
    // sign-in to the local service waits on the person's Allow (their own Sign In, or the code they typed).
    assert.deepEqual(editorFiles().filter(({ text }) => /modal\s*:\s*true/.test(text)).map(({ f }) => f), [path.join('base', 'say.ts')]);
    assert.deepEqual(editorFiles().filter(({ text }) => /say\.confirm\b/.test(text)).map(({ f }) => f).sort(), [path.join('connect', 'cli-connector.ts'), path.join('connection', 'local-service-actions.ts'), path.join('panel', 'open-link.ts')]);
  });
});
