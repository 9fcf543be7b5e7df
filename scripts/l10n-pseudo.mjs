// Writes the pseudo-locale `qps-ploc` from the English sources: l10n/bundle.l10n.qps-ploc.json
// from l10n/bundle.l10n.json, package.nls.qps-ploc.json from package.nls.json, and each
// walkthrough page's media/walkthrough/<page>.nls.qps-ploc.md (pseudoMarkdown). Every message
// is wrapped in ⟦…⟧ and its letters accented, so a word on screen that is still plain English
// was never translated (a glued fragment, a literal outside l10n). Placeholders ({0}), codicons
// ($(bell)), link targets ](command:…), `code`, #setting.ids# and HTML tags stay as they are.
// The files are generated, git-ignored and left out of the VSIX (scripts/package.mjs): the pseudo-locale host window
// (scripts/host-test.mjs --window pseudo) writes them before it starts.
// Usage: node scripts/l10n-pseudo.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PSEUDO_LOCALE = 'qps-ploc';

const ACCENTED = {
  a: 'á', b: 'ƀ', c: 'ç', d: 'ď', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'í', j: 'ĵ', k: 'ķ', l: 'ĺ', m: 'ɱ',
  n: 'ñ', o: 'ó', p: 'þ', q: 'ʠ', r: 'ŕ', s: 'š', t: 'ţ', u: 'ú', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'Á', B: 'Ɓ', C: 'Ç', D: 'Ď', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Í', J: 'Ĵ', K: 'Ķ', L: 'Ĺ', M: 'Ṁ',
  N: 'Ñ', O: 'Ó', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Š', T: 'Ţ', U: 'Ú', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
};

/** The parts of a message that are not words: kept byte for byte. */
const KEEP = /\{\d+\}|\$\([^)\s]*\)|\]\([^)]*\)|`[^`]*`|#[\w.-]+#|<[^>]*>|&[a-z]+;/g;

const accent = (text) => text.replace(/[A-Za-z]/g, (ch) => ACCENTED[ch] ?? ch);

function accentLine(line) {
  let out = '';
  let last = 0;
  for (const m of line.matchAll(KEEP)) {
    out += accent(line.slice(last, m.index)) + m[0];
    last = m.index + m[0].length;
  }
  return out + accent(line.slice(last));
}

/**
 * One message in the pseudo-locale: each line ⟦accented⟧, the kept parts unchanged. A line that is
 * only a link stays one (a welcome view draws it as a button): its text is wrapped inside.
 */
export function pseudo(message) {
  return message.split('\n').map((line) => {
    if (!line.trim()) return line;
    const button = /^\[([^\]]*)\](\([^)]*\))$/.exec(line);
    return button ? `[⟦${accentLine(button[1])}⟧]${button[2]}` : `⟦${accentLine(line)}⟧`;
  }).join('\n');
}

/** A `{ key: message }` file's pseudo twin (package.nls values may also be `{ message, comment }`). */
export function pseudoFile(json) {
  return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, typeof v === 'string' ? pseudo(v)
    : v && typeof v === 'object' && typeof v.message === 'string' ? { ...v, message: pseudo(v.message) } : v]));
}

/**
 * A walkthrough page in the pseudo-locale: each line's words as `pseudo` makes them, its Markdown
 * (a heading's #, a list's - or 1., **bold**) left outside the brackets so it still renders.
 */
export function pseudoMarkdown(page) {
  return page.split('\n').map((line) => {
    const m = /^(\s*(?:#+\s+|[-*]\s+|\d+\.\s+)?)(.*)$/.exec(line);
    return m[2].trim() ? `${m[1]}${pseudo(m[2])}` : line;
  }).join('\n');
}

/** Writes the pseudo files from the English ones; returns the files written. */
export function writePseudo() {
  const pairs = [
    [path.join(root, 'l10n', 'bundle.l10n.json'), path.join(root, 'l10n', `bundle.l10n.${PSEUDO_LOCALE}.json`)],
    [path.join(root, 'package.nls.json'), path.join(root, `package.nls.${PSEUDO_LOCALE}.json`)],
  ];
  for (const [from, to] of pairs) {
    fs.writeFileSync(to, `${JSON.stringify(pseudoFile(JSON.parse(fs.readFileSync(from, 'utf8'))), null, 2)}\n`);
  }
  const walkthrough = path.join(root, 'media', 'walkthrough');
  const pages = fs.readdirSync(walkthrough).filter((f) => /^[^.]+\.md$/.test(f))
    .map((f) => [path.join(walkthrough, f), path.join(walkthrough, f.replace(/\.md$/, `.nls.${PSEUDO_LOCALE}.md`))]);
  for (const [from, to] of pages) fs.writeFileSync(to, pseudoMarkdown(fs.readFileSync(from, 'utf8')));
  return [...pairs, ...pages].map(([, to]) => to);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const f of writePseudo()) console.log(`wrote ${path.relative(root, f)}`);
}
