// German and Japanese ship whole: every key of the manifest and of the bundle translated, each
// placeholder, codicon, link target and `code` span kept, and each walkthrough page localized
// (scripts/l10n-missing.mjs says which keys lack a translation when one is added in English).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
type Missing = { LANGUAGES: string[]; gaps(lang: string, dir?: string): string[]; kept(message: string): string[] };
const load = async () => (await import(path.join(root, 'scripts', 'l10n-missing.mjs'))) as Missing;

describe('German and Japanese: manifest, bundle and walkthrough translated', () => {
  it('ships de and ja', async () => {
    const { LANGUAGES } = await load();
    assert.deepEqual(LANGUAGES, ['de', 'ja']);
  });

  for (const lang of ['de', 'ja']) {
    it(`${lang}: every key of package.nls.json and l10n/bundle.l10n.json translated, placeholders kept; every walkthrough page localized`, async () => {
      const { gaps } = await load();
      const g = gaps(lang);
      assert.deepEqual(g, [], `${g.length} gap(s) in ${lang} (node scripts/l10n-missing.mjs):\n${g.join('\n')}`);
    });

    it(`${lang}: the files are the ones VS Code reads, and the VSIX takes them`, () => {
      for (const f of [`package.nls.${lang}.json`, `l10n/bundle.l10n.${lang}.json`, `media/walkthrough/set-up.nls.${lang}.md`]) {
        assert.ok(fs.existsSync(path.join(root, f)), `${f} exists`);
      }
      const ignore = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8').split('\n');
      assert.ok(ignore.includes('!package.nls.*.json') && ignore.includes('!l10n/*.json') && ignore.includes('!media/walkthrough/*.md'), '.vscodeignore keeps the translations');
    });
  }

  it('the check finds a missing key, English left as it was, a lost or changed placeholder, a stale key and a page not localized', async () => {
    const { gaps, kept } = await load();
    assert.deepEqual(kept('$(check) Answered "{0}" with {1}. [Open](command:x.y) `a.b` #s.t#'), ['#s.t#', '$(check)', '](command:x.y)', '`a.b`', '{0}', '{1}']);
    assert.deepEqual(kept('{0}: {1}'), kept('{1}：{0}'), 'the order may change');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l10n-gaps-'));
    try {
      const write = (rel: string, body: unknown) => {
        fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        fs.writeFileSync(path.join(dir, rel), typeof body === 'string' ? body : JSON.stringify(body));
      };
      write('l10n/bundle.l10n.json', { 'Back {0}.': 'Back {0}.', 'Got it': 'Got it', 'Sign in again.': 'Sign in again.', '$(pass) Done': '$(pass) Done', 'Cards: offline': 'Cards: offline' });
      write('l10n/bundle.l10n.de.json', { 'Back {0}.': 'Zurück {1}.', 'Sign in again.': 'Sign in again.', '$(pass) Done': 'Erledigt', 'Cards: offline': 'Karten: offline', 'Gone': 'Weg' });
      write('package.nls.json', { 'command.signIn': 'Sign In', 'config.x': 'See `#a.b#`.' });
      write('package.nls.de.json', { 'command.signIn': 'Anmelden', 'config.x': 'Siehe `#a.c#`.' });
      write('media/walkthrough/set-up.md', 'Set `a.b` to the path.');
      write('media/walkthrough/sign-in.md', 'Sign in.');
      write('media/walkthrough/set-up.nls.de.md', 'Setze `a.b` auf den Pfad.');
      assert.deepEqual(gaps('de', dir), [
        'l10n/bundle.l10n.de.json: "Back {0}." keeps {1}, English has {0}',
        'l10n/bundle.l10n.de.json: no translation of "Got it"',
        'l10n/bundle.l10n.de.json: still English: "Sign in again."',
        'l10n/bundle.l10n.de.json: "$(pass) Done" keeps nothing, English has $(pass)',
        'l10n/bundle.l10n.de.json: stale key "Gone" (no longer in English)',
        'package.nls.de.json: "config.x" keeps `#a.c#`, English has `#a.b#`',
        'media/walkthrough/sign-in.nls.de.md: the page is missing',
      ]);
      assert.deepEqual(gaps('ja', dir).filter((g) => /missing/.test(g)), ['l10n/bundle.l10n.ja.json: the file is missing', 'package.nls.ja.json: the file is missing',
        'media/walkthrough/set-up.nls.ja.md: the page is missing', 'media/walkthrough/sign-in.nls.ja.md: the page is missing']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
