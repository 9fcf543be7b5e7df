// A tool's input as the lines of a permission card's summary: every key shown, nothing dropped.
// Keys we know get words (the command, the file, the change as a diff (file-change.ts), the flags
// that widen what runs);
// every other key is listed as it came, as JSON, under its own heading. Text the model wrote (a
// command, a "why", a file's content) stands in a quoted block: each of its lines begins with the
// gutter `│ `, so no line of it can pass for the card's own words ("Why:", "In:"), and the
// display (src/shared/summary-blocks.ts) shows each block apart with its line count. The labels are
// in the person's language (words.ts); the keys' own names stay as the CLI sent them.
import { BREAKS } from '../api/constants';
import { quoted } from './quoted-text';
import { editChange, writeChange } from './file-change';
import { say } from './words';

export { quoted } from './quoted-text';

/** `Label: value` on one line when the value has none of its own, else the label over a quoted block. */
function field(label: string, value: string): string {
  return BREAKS.test(value) ? `${label}:\n${quoted(value)}` : `${label}: ${value}`;
}

const block = (label: string, value: string) => `${label}:\n${quoted(value)}`;
const str = (v: unknown): v is string => typeof v === 'string';

/** Where the input comes from: the tool that takes it, and the folder the CLI's session works in. */
export interface InputContext { tool?: string; cwd?: string }

/**
 * What one known key says; undefined when its value is not of the shape we word (then it is listed
 * as it came), null when another key's words show it whole (new_string, in old_string's diff).
 */
type Worder = (value: unknown, input: Record<string, unknown>, at: InputContext) => string | null | undefined;

/** The tools whose `content` replaces the file at `file_path` whole: Claude Code's Write, Gemini CLI's write_file. */
const WRITE_TOOLS = new Set(['Write', 'write_file']);

const commandWords: Worder = (v) => {
  if (str(v)) return block(say('command'), v);
  if (Array.isArray(v) && v.length > 0) {
    // Argument boundaries matter (`rm "a b"` is not `rm a b`): one argument a line, as JSON strings.
    const args = v.map((a, i) => `${i + 1}. ${JSON.stringify(a)}`).join('\n');
    return block(say('commandArgs', v.length), args);
  }
  return undefined;
};

const KNOWN: Record<string, Worder> = {
  command: commandWords,
  cmd: (v) => (str(v) ? block(say('cmd'), v) : undefined),
  description: (v) => (str(v) ? block(say('description'), v) : undefined),
  justification: (v) => (str(v) ? block(say('justification'), v) : undefined),
  dangerouslyDisableSandbox: (v) => (typeof v === 'boolean' ? (v ? say('outsideSandbox') : 'dangerouslyDisableSandbox: false') : undefined),
  run_in_background: (v) => (typeof v === 'boolean' ? (v ? say('inBackground') : 'run_in_background: false') : undefined),
  timeout: (v) => (typeof v === 'number' ? say('timeLimit', v) : undefined),
  file_path: (v) => (str(v) ? field(say('file'), v) : undefined),
  notebook_path: (v) => (str(v) ? field(say('notebook'), v) : undefined),
  path: (v) => (str(v) ? field(say('path'), v) : undefined),
  // Both strings: one diff shows them whole. One alone (an odd shape): as its own block.
  old_string: (v, input) => (!str(v) ? undefined : str(input.new_string) ? editChange(v, input.new_string) : block(say('replace'), v)),
  new_string: (v, input) => (!str(v) ? undefined : str(input.old_string) ? null : block(say('with'), v)),
  replace_all: (v) => (typeof v === 'boolean' ? (v ? say('everyOccurrence') : 'replace_all: false') : undefined),
  content: (v, input, at) => (!str(v) ? undefined
    : WRITE_TOOLS.has(at.tool ?? '') && str(input.file_path) ? writeChange(input.file_path, v, at.cwd).join('\n\n') : block(say('content'), v)),
  edits: (v) => editsWords(v),
  new_source: (v) => (str(v) ? block(say('newSource'), v) : undefined),
  cell_id: (v) => (str(v) ? field(say('cell'), v) : undefined),
  cell_type: (v) => (str(v) ? field(say('cellType'), v) : undefined),
  edit_mode: (v) => (str(v) ? field(say('editMode'), v) : undefined),
  url: (v) => (str(v) ? field(say('address'), v) : undefined),
  prompt: (v) => (str(v) ? block(say('prompt'), v) : undefined),
  query: (v) => (str(v) ? block(say('search'), v) : undefined),
  subagent_type: (v) => (str(v) ? field(say('agentType'), v) : undefined),
};

/** MultiEdit's `edits`, one by one; anything not of that shape is listed as it came. */
function editsWords(v: unknown): string | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const ok = v.every((e) => e && typeof e === 'object' && str((e as Record<string, unknown>).old_string) && str((e as Record<string, unknown>).new_string)
    && Object.keys(e as object).every((k) => ['old_string', 'new_string', 'replace_all'].includes(k)));
  if (!ok) return undefined;
  return (v as Record<string, unknown>[]).map((e, i) => [
    `${say('editOf', i + 1, v.length)}:`,
    editChange(e.old_string as string, e.new_string as string),
    ...(e.replace_all === true ? [say('everyOccurrence')] : e.replace_all === false ? ['replace_all: false'] : []),
  ].join('\n')).join('\n\n');
}

/** The tool's input as the summary's paragraphs: known keys worded, in the input's order; the rest as it came. */
export function inputLines(input: Record<string, unknown>, at: InputContext = {}): string[] {
  const lines: string[] = [];
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const worded = Object.hasOwn(KNOWN, key) ? KNOWN[key]!(value, input, at) : undefined;
    if (typeof worded === 'string') lines.push(worded);
    else if (worded === null) continue;
    else rest[key] = value;
  }
  const n = Object.keys(rest).length;
  if (n > 0) lines.push(block(n === 1 ? say('otherInputOne') : say('otherInput', n), JSON.stringify(rest, null, 2)));
  return lines;
}

/** The first words of a command for a title: its first line, cut at a word with "…" past `max`. */
export function firstWords(command: string | readonly unknown[], max = 48): string {
  const text = typeof command === 'string' ? command : command.map(String).join(' ');
  const lines = text.split(BREAKS).map((l) => l.trim()).filter(Boolean);
  const first = (lines[0] ?? '').replace(/\s+/g, ' ');
  if (first.length <= max && lines.length <= 1) return first;
  const cut = first.length <= max ? first : first.slice(0, max).replace(/\s+\S*$/, '') || first.slice(0, max);
  return `${cut}…`;
}
