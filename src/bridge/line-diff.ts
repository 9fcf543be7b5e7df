// Two texts compared line by line, for a file tool's card (#54): which lines stay, which go, which
// come. Lines are what `quoted()` shows: the text split at every line break, so a text that ends
// with a break ends with an empty line, and joining a side's lines with "\n" gives it back when its
// breaks are "\n". A break of another kind (CRLF, CR...) is part of its line's identity, so a change
// of line ends alone is still a changed line; lineBreaks() names the kinds for the card. Pure.

/** One line of the comparison: kept (' '), only in the old text ('-'), or only in the new ('+'). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
  /** 1-based line numbers on each side the line is on. */
  oldNo?: number;
  newNo?: number;
}

/** The comparison table's size (old lines × new lines, past the common start and end) beyond which
 *  the middle is shown as removed whole, then added whole: still exact, only not the smallest diff. */
export const MAX_CELLS = 1_000_000;

const BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;

interface Line { text: string; end: string }

/** A text's lines with the break after each ('' for the last); no lines at all for "". */
export function splitLines(text: string): Line[] {
  if (text === '') return [];
  const lines: Line[] = [];
  let at = 0;
  for (const m of text.matchAll(BREAK)) {
    lines.push({ text: text.slice(at, m.index), end: m[0] });
    at = m.index + m[0].length;
  }
  lines.push({ text: text.slice(at), end: '' });
  return lines;
}

/** A line as compared: its words, and its break unless that is a plain "\n" (or none, at the end). */
const key = (l: Line) => (l.end === '\n' || l.end === '' ? l.text : `${l.text}\u0000${l.end}`);

/** The lines of `before` and `after`, in order, each kept, removed or added. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const old = splitLines(before);
  const now = splitLines(after);
  const a = old.map(key);
  const b = now.map(key);
  const at = old.map((l) => l.text);
  const bt = now.map((l) => l.text);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }

  const out: DiffLine[] = [];
  for (let i = 0; i < start; i++) out.push({ op: ' ', text: at[i]!, oldNo: i + 1, newNo: i + 1 });
  for (const [op, i, j] of middle(a, b, start, endA, endB)) {
    out.push(op === ' ' ? { op, text: at[i]!, oldNo: i + 1, newNo: j + 1 } : op === '-' ? { op, text: at[i]!, oldNo: i + 1 } : { op, text: bt[j]!, newNo: j + 1 });
  }
  for (let i = endA, j = endB; i < a.length; i++, j++) out.push({ op: ' ', text: at[i]!, oldNo: i + 1, newNo: j + 1 });
  return out;
}

/** The differing middle as (op, old index, new index): a longest common subsequence where the table fits. */
function middle(a: string[], b: string[], start: number, endA: number, endB: number): [DiffLine['op'], number, number][] {
  const n = endA - start;
  const m = endB - start;
  const out: [DiffLine['op'], number, number][] = [];
  if (n === 0 || m === 0 || n * m > MAX_CELLS) {
    for (let i = 0; i < n; i++) out.push(['-', start + i, -1]);
    for (let j = 0; j < m; j++) out.push(['+', -1, start + j]);
    return out;
  }
  // lcs[i][j]: the longest common run of a[start+i..] and b[start+j..]; min(n, m) <= 1000 here, so 16 bits hold it.
  const w = m + 1;
  const lcs = new Uint16Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = a[start + i] === b[start + j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[start + i] === b[start + j]) { out.push([' ', start + i, start + j]); i++; j++; }
    else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) { out.push(['-', start + i, -1]); i++; }
    else { out.push(['+', -1, start + j]); j++; }
  }
  for (; i < n; i++) out.push(['-', start + i, -1]);
  for (; j < m; j++) out.push(['+', -1, start + j]);
  return out;
}

const BREAK_NAMES: Record<string, string> = { '\n': 'LF (\\n)', '\r\n': 'CRLF (\\r\\n)', '\r': 'CR (\\r)', '\v': 'VT (\\v)', '\f': 'FF (\\f)' };

/** The kinds of line break in a text, counted ("2 × CRLF (\r\n), 1 × LF (\n)"); "" when it has none. */
export function lineBreaks(text: string): string {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(BREAK)) counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
  return [...counts].map(([b, n]) => `${n} × ${BREAK_NAMES[b] ?? `U+${b.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`}`).join(', ');
}

/** Whether a text breaks a line other than with "\n": then the card names its breaks. */
export const oddBreaks = (text: string) => /\r|[\v\f\u0085\u2028\u2029]/.test(text);
