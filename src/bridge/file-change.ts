// A file tool's change as a card's diff (#54): Edit's and MultiEdit's old_string against their
// new_string, and Write's content against the file it replaces. Each diff line stands behind a
// gutter of its own, `│- ` removed, `│+ ` added, `│  ` kept: the mark sits where the model's text
// cannot reach (it starts after the gutter), so it reads without colour and no line of a command
// or a file can pose as a diff line, or a diff line as the card's own words.
// src/shared/summary-blocks.ts reads the same gutters. What the card must keep whole (#52 F3):
// an Edit's diff shows every line of both strings (kept lines included), so each is readable
// there; a Write to an existing file shows its changed lines with a few around them, bounded,
// and the whole content below as its own block.
import { GUTTER } from '../api/constants';
import { quoted } from './quoted-text';
import { lineBreaks, lineDiff, oddBreaks, splitLines, type DiffLine } from './line-diff';
import { fileNow, MAX_BYTES } from './file-now';
import { say } from './words';

/** Kept lines shown around a changed one in a Write's diff. */
export const CONTEXT = 3;
/** The lines a Write's diff shows at most; the rest is counted (the whole content follows it). */
export const MAX_SHOWN = 400;

/** Diff lines as a quoted block: the mark in the gutter, then the line as it came. */
export function diffQuoted(lines: readonly DiffLine[]): string {
  return lines.map((l) => `${GUTTER[0]}${l.op} ${l.text}`).join('\n');
}

/** A label over diff lines; a label alone when there are none. */
const labelled = (label: string, lines: readonly DiffLine[]) => (lines.length ? `${label}:\n${diffQuoted(lines)}` : `${label}:`);

/** The lines naming each side's breaks when either breaks a line other than with "\n" (CRLF...). */
function breaksWords(sides: [string, string][]): string[] {
  if (!sides.some(([, text]) => oddBreaks(text))) return [];
  return sides.map(([name, text]) => say('lineBreaksOf', name, lineBreaks(text) || say('noLineBreaks')));
}

/** Edit's (or one of MultiEdit's) old_string → new_string, every line of both shown. */
export function editChange(before: string, after: string): string {
  return [
    labelled(say('editChange'), lineDiff(before, after)),
    ...(before === '' ? [say('isEmpty', 'old_string')] : []),
    ...(after === '' ? [say('isEmpty', 'new_string')] : []),
    ...breaksWords([['old_string', before], ['new_string', after]]),
  ].join('\n');
}

/** Write's content: against the file it replaces where the bridge may read it, else as a new file or whole. */
export function writeChange(file: string, content: string, cwd: string | undefined): string[] {
  const now = fileNow(file, cwd);
  if (now.kind === 'new') {
    return [[labelled(say('newFile'), lineDiff('', content)), ...(content === '' ? [say('isEmpty', 'content')] : []), ...breaksWords([['content', content]])].join('\n')];
  }
  const whole = content === '' ? say('isEmpty', 'content') : `${say('content')}:\n${quoted(content)}`;
  if (now.kind === 'not-compared') return [say('notCompared', whyWords(now.why, now.detail)), whole];
  if (now.text === content) return [say('sameAsNow'), whole];
  const lines = lineDiff(now.text, content);
  // Lines as people count them: a last line break does not start one more.
  const count = splitLines(now.text).filter((l, i, all) => i < all.length - 1 || l.text !== '').length;
  return [[say('fileChange', count), ...hunks(lines), ...breaksWords([[say('fileNowName'), now.text], ['content', content]])].join('\n'), whole];
}

function whyWords(why: 'outside' | 'large' | 'not-text' | 'not-a-file' | 'unreadable', detail: string | undefined): string {
  switch (why) {
    case 'outside': return say('whyOutside');
    case 'large': return say('whyLarge', Math.round(MAX_BYTES / 1024));
    case 'not-text': return say('whyNotText');
    case 'not-a-file': return say('whyNotAFile');
    case 'unreadable': return say('whyUnreadable', detail ?? '?');
  }
}

/** The changed lines with CONTEXT kept lines around them, each run headed by where it is in the file now. */
function hunks(lines: readonly DiffLine[]): string[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((l, i) => {
    if (l.op === ' ') return;
    for (let k = Math.max(0, i - CONTEXT); k <= Math.min(lines.length - 1, i + CONTEXT); k++) keep[k] = true;
  });
  const out: string[] = [];
  let shown = 0;
  let oldLine = 1; // the line of the file now that the next diff line is at
  for (let i = 0; i < lines.length;) {
    if (!keep[i]) { if (lines[i]!.op !== '+') oldLine++; i++; continue; }
    let j = i;
    while (j < lines.length && keep[j]) j++;
    const run = lines.slice(i, Math.min(j, i + MAX_SHOWN - shown));
    if (run.length > 0) out.push(`${say('atLine', oldLine)}\n${diffQuoted(run)}`);
    shown += run.length;
    if (i + run.length < j) {
      // Every changed line is in some run: those past the bound are counted, not shown.
      out.push(say('moreChanged', lines.slice(i + run.length).filter((l) => l.op !== ' ').length));
      break;
    }
    oldLine += run.filter((l) => l.op !== '+').length;
    i = j;
  }
  return out;
}
