// The scripts of a text's letters (Unicode's Script property, as the JavaScript engine carries it:
// no table of our own), and whether one word mixes them as UTS #39's "highly restrictive" level
// forbids. Apart from look-alike.ts's confusables table, so that the card panel's webview, which
// marks mixed-script words, does not carry that table. Pure.

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Scripts a letter or digit is told by; one not listed here is "other", which is doubt. */
// Unicode script names (property values, not words for people).
const SCRIPTS = 'Latin Greek Cyrillic Armenian Hebrew Arabic Syriac Thaana Nko Devanagari Bengali Gurmukhi Gujarati Oriya Tamil Telugu Kannada Malayalam Sinhala Thai Lao Tibetan Myanmar Georgian Hangul Ethiopic Cherokee Canadian_Aboriginal Ogham Runic Khmer Mongolian Hiragana Katakana Bopomofo Han Yi Coptic Lisu Tifinagh Vai Adlam'.split(' '); // l10n-ignore
export const SCRIPT_RES = SCRIPTS.map((s) => [s, new RegExp(`^\\p{Script=${s}}$`, 'u')] as const);
export const NEUTRAL = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** The scripts of a label's characters, Common and Inherited (digits, punctuation, marks) left out. */
export function scriptsOf(label: string): Set<string> {
  const found = new Set<string>();
  for (const c of label.normalize('NFKC').replace(IGNORABLE, '')) {
    if (NEUTRAL.test(c) || !/[\p{L}\p{N}\p{M}]/u.test(c)) continue;
    found.add(SCRIPT_RES.find(([, re]) => re.test(c))?.[0] ?? 'other');
  }
  return found;
}

const CJK_MIXES = ['Han Hiragana Katakana', 'Han Bopomofo', 'Han Hangul'].map((m) => m.split(' ')); // l10n-ignore
/**
 * Letters of more than one script in one label, or of a script not known here: doubt. Japanese,
 * Chinese and Korean mix with Latin as UTS #39's "highly restrictive" level allows (Han with
 * Hiragana and Katakana, with Bopomofo, or with Hangul).
 */
export function mixedScripts(label: string): boolean {
  const s = scriptsOf(label);
  if (s.has('other')) return true;
  if (s.size <= 1) return false;
  s.delete('Latin'); // l10n-ignore
  return !CJK_MIXES.some((allowed) => [...s].every((x) => allowed.includes(x)));
}

