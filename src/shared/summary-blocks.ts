// A card's summary as parts a layout can show apart: the card's own words, and quoted blocks (text
// an assistant's model wrote: a command, its "why", a file's content). The bridge quotes such text
// line by line behind a gutter, `│ ` (src/bridge/tool-input.ts), so no line of a command can pass
// for the card's own "Why:" or "In:". Here runs of blank lines become one counted mark and very
// long lines are marked, in blocks and in the card's own words alike, so a summary cannot push
// its end out of sight unseen. Pure: the panel's webview, the notification, the palette and the
// card page all read it. A file tool's change (src/bridge/file-change.ts) comes as a diff block:
// its marks stand in the gutter itself, `│- ` removed, `│+ ` added, `│  ` kept, where no model's
// text reaches; such a block is shown with each line's mark, and counted by removed and added.
import { BREAKS, GUTTER } from '../api/constants';
import { t } from './l10n';
/** Blank lines in a row from which they are one mark ("[60 blank lines]"). */
export const BLANK_RUN = 2;
/** A line longer than this is marked with its length (it wraps; its end may sit far from its start). */
export const LONG_LINE = 200;

/** A diff line's side: removed from the text, added to it, or kept. */
export type Change = 'removed' | 'added' | 'kept';
/**
 * One shown line: text (marked `long` with its length past LONG_LINE), or a run of blank lines; in
 * a diff block each also says its `change` (a run of blank lines is one of a single change).
 */
export type ShownLine = ({ text: string; long?: number } | { blank: number }) & { change?: Change };
/** The card's own words, or a quoted block with its line count (blank ones counted); a diff block also counts its removed and added lines. */
export type SummaryPart = { kind: 'words'; lines: ShownLine[] } | { kind: 'quoted'; lines: ShownLine[]; count: number; diff?: { removed: number; added: number } };

/** A diff line's gutter: the bar, its mark, a space (a kept line's mark is the space of GUTTER). */
const DIFF_LINE = /^\u2502[-+](?: |$)/;
const quotedLine = (l: string) => l.startsWith(GUTTER) || l === GUTTER.trimEnd() || DIFF_LINE.test(l);
const CHANGES: Record<string, Change> = { '-': 'removed', '+': 'added', ' ': 'kept' };

/** A diff line's mark, as the shown line begins with it: `-`, `+`, or a space for a kept line. */
export function diffMark(change: Change): string {
  return change === 'removed' ? '-' : change === 'added' ? '+' : ' ';
}

/** Lines as shown: runs of BLANK_RUN or more blank lines as one counted run, long lines marked. */
function shown(lines: readonly string[]): ShownLine[] {
  const out: ShownLine[] = [];
  for (let i = 0; i < lines.length;) {
    if (lines[i]!.trim() === '') {
      let j = i;
      while (j < lines.length && lines[j]!.trim() === '') j++;
      if (j - i >= BLANK_RUN) out.push({ blank: j - i });
      else for (let k = i; k < j; k++) out.push({ text: lines[k]! });
      i = j;
      continue;
    }
    const text = lines[i]!;
    out.push(text.length > LONG_LINE ? { text, long: text.length } : { text });
    i++;
  }
  return out;
}

/** The summary as parts, in order. Nothing is left out: every line is in a part, blank runs counted. */
export function summaryParts(summary: string | undefined): SummaryPart[] {
  if (!summary) return [];
  const lines = summary.split(BREAKS);
  const parts: SummaryPart[] = [];
  for (let i = 0; i < lines.length;) {
    const inBlock = quotedLine(lines[i]!);
    let j = i;
    while (j < lines.length && quotedLine(lines[j]!) === inBlock) j++;
    const run = lines.slice(i, j);
    if (inBlock && run.some((l) => DIFF_LINE.test(l))) {
      parts.push(diffPart(run));
    } else if (inBlock) {
      const body = run.map((l) => l.slice(GUTTER.length));
      parts.push({ kind: 'quoted', lines: shown(body), count: body.length });
    } else {
      // The blank line that parts paragraphs at either end of a block is layout, not words.
      const words = trimEnds(shown(run));
      if (words.length > 0) parts.push({ kind: 'words', lines: words });
    }
    i = j;
  }
  return parts;
}

/** A diff block: each line's change from its gutter, runs of blank lines of one change counted. */
function diffPart(run: readonly string[]): SummaryPart {
  const lines = run.map((l) => ({ change: CHANGES[l[1] ?? ' '] ?? 'kept', text: l.slice(3) }));
  const shownRun: ShownLine[] = [];
  for (let i = 0; i < lines.length;) {
    let j = i;
    while (j < lines.length && lines[j]!.change === lines[i]!.change) j++;
    shownRun.push(...shown(lines.slice(i, j).map((l) => l.text)).map((l) => ({ ...l, change: lines[i]!.change })));
    i = j;
  }
  const removed = lines.filter((l) => l.change === 'removed').length;
  const added = lines.filter((l) => l.change === 'added').length;
  return { kind: 'quoted', lines: shownRun, count: lines.length, diff: { removed, added } };
}

/** Single blank lines at the ends of the card's words, dropped (a counted run stays: it is shown). */
function trimEnds(lines: ShownLine[]): ShownLine[] {
  const empty = (l: ShownLine | undefined) => !!l && !('blank' in l) && l.text.trim() === '';
  let a = 0;
  let b = lines.length;
  while (a < b && empty(lines[a])) a++;
  while (b > a && empty(lines[b - 1])) b--;
  return lines.slice(a, b);
}

/** A quoted block's caption: how many lines it holds. */
export function lineCount(count: number): string {
  return count === 1 ? t('1 line') : t('{0} lines', count);
}

/** A diff block's caption: its lines, and how many are removed and added. */
export function diffCount(count: number, removed: number, added: number): string {
  return `${lineCount(count)} · ${t('{0} removed, {1} added', removed, added)}`;
}

/** The mark shown for a run of blank lines. */
export function blankRunWords(count: number): string {
  return t('[{0} blank lines]', count);
}

/** The mark shown before a very long line. */
export function longLineWords(length: number): string {
  return t('[long line: {0} characters]', length);
}

/**
 * Whether a one-line surface (a notification, a quick pick) can show the summary whole: no quoted
 * block of more than one line, no run of blank lines, no very long line. Otherwise it opens the
 * card instead of answering over it.
 */
export function fitsOneLine(summary: string | undefined): boolean {
  return summaryParts(summary).every((p) => (p.kind === 'words' || p.count <= 1)
    && p.lines.every((l) => !('blank' in l) && l.long === undefined));
}

/** The summary in one line for a notification or a quick pick: lines joined by a space, paragraphs by " · ". */
export function summaryOneLine(summary: string | undefined): string {
  if (!summary) return '';
  return summary.split(/(?:(?:\r\n|[\n\r\v\f\u0085\u2028\u2029])[ \t]*){2,}/).map((p) => p.split(BREAKS).join(' ').trim()).filter(Boolean).join(' · ');
}
