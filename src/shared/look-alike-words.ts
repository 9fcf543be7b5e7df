// Look-alike words inside the words being approved (#52): a word whose letters mix scripts
// (`gіthub` with a Cyrillic і), or a host name not all of one script (`раураl.com`). Marked as
// hidden characters are, with their odd letters as `[U+0456 Cyrillic]`. The script data is
// Unicode's, as the JavaScript engine carries it (shared/scripts.ts). Pure.
import { mixedScripts, NEUTRAL, SCRIPT_RES, scriptsOf } from './scripts';

/** A word (letters, marks, digits), or a host name: such words joined by dots. */
const WORD = /[\p{L}\p{M}\p{N}]+(?:[.-][\p{L}\p{M}\p{N}]+)*/gu;
const LETTER = /[\p{L}\p{M}\p{N}]/u;
// eslint-disable-next-line no-control-regex
const ASCII = /^[\u0000-\u007f]*$/;

/** The script of one character (Common and Inherited: undefined). */
function scriptOf(c: string): string | undefined {
  if (NEUTRAL.test(c) || !LETTER.test(c)) return undefined;
  return SCRIPT_RES.find(([, re]) => re.test(c))?.[0] ?? 'other';
}

/**
 * Whether a word or a host name could pass for another: a word (between dots and dashes) whose
 * letters mix scripts as `mixedScripts` judges a label, or a host name (`a.b`) whose letters are
 * not all of one script (`раураl.com`: Cyrillic letters under a Latin top-level domain).
 */
function looksAlike(token: string): boolean {
  if (token.split(/[.-]/).some((w) => mixedScripts(w))) return true;
  return token.includes('.') && scriptsOf(token).size > 1;
}

/** The words of a text that could pass for others (mixed scripts, a host name not of one script), each once. */
export function lookAlikeWords(text: string | undefined): string[] {
  if (!text) return [];
  const found = new Set<string>();
  for (const m of text.matchAll(WORD)) if (looksAlike(m[0])) found.add(m[0]);
  return [...found];
}

/** Whether any of the texts holds a look-alike word. */
export function holdsLookAlike(...texts: (string | undefined)[]): boolean {
  return texts.some((x) => lookAlikeWords(x).length > 0);
}

const mark = (c: string, script: string) => `[U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} ${script}]`;

/**
 * The text with the odd letters of each look-alike word shown as marks, as hidden characters are:
 * `g[U+0456 Cyrillic]thub.com`. Odd: not Latin, when the word has Latin letters (a Latin word or
 * address imitated); else not of the word's most used script. Every other word is left as it is.
 */
export function markLookAlikes(text: string): string {
  // ASCII holds one script only: the common case skips the word pass.
  if (ASCII.test(text)) return text;
  return text.replace(WORD, (token) => {
    if (!looksAlike(token)) return token;
    const counts = new Map<string, number>();
    for (const c of token) { const s = scriptOf(c); if (s) counts.set(s, (counts.get(s) ?? 0) + 1); }
    const main = counts.has('Latin') ? 'Latin' : [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]; // l10n-ignore: a script name
    return [...token].map((c) => { const s = scriptOf(c); return s && s !== main ? mark(c, s) : c; }).join('');
  });
}
