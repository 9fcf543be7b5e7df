// Which words lack a translation: for each language we ship (LANGUAGES), the manifest
// (package.nls.<lang>.json against package.nls.json), the bundle (l10n/bundle.l10n.<lang>.json
// against l10n/bundle.l10n.json, which scripts/l10n-bundle.mjs writes from the sources) and the
// walkthrough's pages (media/walkthrough/<page>.nls.<lang>.md, VS Code's name for a localized page).
// A key with no translation, a translation left in English, a stale key, or a translation that lost
// or changed a placeholder ({0}), a codicon ($(bell)), a link target ](command:…), a `code` span
// or a #setting.id# is a gap. test/scripts/l10n-translations.test.ts fails on any gap.
// Usage: node scripts/l10n-missing.mjs   (prints the gaps; exit code 1 when there is one)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The display languages shipped besides English. */
export const LANGUAGES = ['de', 'ja'];

/** What a translation keeps byte for byte, sorted (the order may change with the sentence). */
export function kept(message) {
  return (message.match(/\{\d+\}|\$\([^)\s]*\)|\]\([^)]*\)|`[^`]*`|#[\w.-]+#/g) ?? []).sort();
}

/** Words a language writes as English does (a translation that is the English message is right then). */
const SAME_WORDS = { de: ['offline'] };

/** English words still there: the same message as English, with a lowercase word of three letters or more not the same in `lang`. */
function untranslated(english, translated, lang) {
  if (english !== translated) return false;
  let rest = english.replace(/`[^`]*`|\]\([^)]*\)|#[\w.-]+#/g, ' ');
  for (const w of SAME_WORDS[lang] ?? []) rest = rest.replace(new RegExp(`\\b${w}\\b`, 'g'), ' ');
  return /\b[a-z]{3,}\b/.test(rest);
}

const readJson = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined);
const text = (v) => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof v.message === 'string' ? v.message : undefined);

function compare(where, lang, english, translated, out) {
  if (!translated) {
    out.push(`${where}: the file is missing`);
    return;
  }
  for (const [key, value] of Object.entries(english)) {
    const en = text(value);
    const tr = text(translated[key]);
    if (en === undefined) continue;
    if (tr === undefined || !tr.trim()) out.push(`${where}: no translation of ${JSON.stringify(key)}`);
    else if (untranslated(en, tr, lang)) out.push(`${where}: still English: ${JSON.stringify(key)}`);
    else if (JSON.stringify(kept(en)) !== JSON.stringify(kept(tr))) {
      out.push(`${where}: ${JSON.stringify(key)} keeps ${kept(tr).join(' ') || 'nothing'}, English has ${kept(en).join(' ') || 'nothing'}`);
    }
  }
  for (const key of Object.keys(translated)) if (!(key in english)) out.push(`${where}: stale key ${JSON.stringify(key)} (no longer in English)`);
}

/** Every gap of one language in the project at `dir` (this repository by default), `file: what` each. */
export function gaps(lang, dir = root) {
  const out = [];
  const walkthrough = path.join(dir, 'media', 'walkthrough');
  compare(`l10n/bundle.l10n.${lang}.json`, lang, readJson(path.join(dir, 'l10n', 'bundle.l10n.json')), readJson(path.join(dir, 'l10n', `bundle.l10n.${lang}.json`)), out);
  compare(`package.nls.${lang}.json`, lang, readJson(path.join(dir, 'package.nls.json')), readJson(path.join(dir, `package.nls.${lang}.json`)), out);
  for (const page of fs.readdirSync(walkthrough).filter((f) => /^[^.]+\.md$/.test(f))) {
    const localized = path.join(walkthrough, page.replace(/\.md$/, `.nls.${lang}.md`));
    const where = path.relative(dir, localized);
    if (!fs.existsSync(localized)) { out.push(`${where}: the page is missing`); continue; }
    const en = fs.readFileSync(path.join(walkthrough, page), 'utf8');
    const tr = fs.readFileSync(localized, 'utf8');
    if (untranslated(en, tr, lang)) out.push(`${where}: still English`);
    const codeOf = (s) => (s.match(/`[^`]*`/g) ?? []).sort();
    if (JSON.stringify(codeOf(en)) !== JSON.stringify(codeOf(tr))) out.push(`${where}: keeps ${codeOf(tr).join(' ')}, English has ${codeOf(en).join(' ')}`);
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let n = 0;
  for (const lang of LANGUAGES) {
    const g = gaps(lang);
    n += g.length;
    console.log(`${lang}: ${g.length ? `${g.length} gap(s)` : 'complete'}`);
    for (const line of g) console.log(`  ${line}`);
  }
  process.exitCode = n ? 1 : 0;
}
