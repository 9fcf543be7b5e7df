// Characters that change or hide what a card's words say without being seen: bidi controls (which
// reorder what follows: "gnp.exe" reads as "exe.png"), zero-width and other default-ignorable
// characters (which hide a word's break, or a whole message in tag characters), blank letters
// (the Hangul fillers, the braille blank), line and paragraph separators, and C0/C1 controls.
// One rule for every place a card's words are shown: each is replaced by a visible mark,
// `[U+202E]`, the way the editor's own Unicode highlighting boxes them. Pure: no `vscode` (the
// tree, notifications and picks use it through `oneLine`; the card panel's webview directly).

// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u2800\ufff9-\ufffb\p{Default_Ignorable_Code_Point}]/gu;
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Emoji_Modifier}/u;

/**
 * A character that emoji need, in its place: a variation selector after a pictograph or a keycap
 * base ("❤️", "1️⃣"), a zero-width joiner between two pictographs ("👩‍💻"). Anywhere else it hides.
 */
function partOfEmoji(text: string, c: string, at: number): boolean {
  // The character before, whole (a pictograph is two UTF-16 units).
  const prev = at > 1 && /[\udc00-\udfff]/.test(text[at - 1] ?? '') ? text.slice(at - 2, at) : text[at - 1] ?? '';
  if (c === '\ufe0f' || c === '\ufe0e') return PICTOGRAPH.test(prev) || /^[#*0-9]$/.test(prev);
  if (c !== '\u200d') return false;
  const after = text.codePointAt(at + 1);
  const joinsFrom = PICTOGRAPH.test(prev) || (prev === '\ufe0f' && at > 1);
  return joinsFrom && after !== undefined && PICTOGRAPH.test(String.fromCodePoint(after));
}

const mark = (c: string) => `[U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`;

/** Tab, line feed and carriage return are not hidden in text shown on several lines; every other such character is. */
function each(text: string, keepLines: boolean, fn: (c: string) => string): string {
  return text.replace(HIDDEN, (c, at: number) => {
    if (keepLines && (c === '\t' || c === '\n' || c === '\r')) return c;
    return partOfEmoji(text, c, at) ? c : fn(c);
  });
}

/**
 * The text with every hidden character shown as `[U+XXXX]`. Tab, line feed and carriage return
 * stay (several-line text: the panel's summary); in one line, `oneLine` makes them spaces first.
 */
export function showHidden(text: string): string {
  return each(text, true, mark);
}

/** The hidden characters in the text (line characters and emoji's joiners aside), as their marks. */
export function hiddenIn(text: string | undefined): string[] {
  if (!text) return [];
  const found: string[] = [];
  each(text, true, (c) => { found.push(mark(c)); return c; });
  return found;
}

/** Whether any of the texts holds a hidden character. */
export function holdsHidden(...texts: (string | undefined)[]): boolean {
  return texts.some((x) => hiddenIn(x).length > 0);
}

/**
 * A link's address as it will open: the parsed URL (a look-alike domain in punycode, `xn--…`; the
 * path percent-encoded), its hidden characters shown. Unparsable: the text, hidden characters shown.
 */
export function shownAddress(url: string): string {
  try {
    return showHidden(new URL(url).href);
  } catch {
    return showHidden(url);
  }
}
