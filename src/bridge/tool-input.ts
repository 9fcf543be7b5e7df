// A tool's input as the lines of a permission card's summary: every key shown, nothing dropped.
// Keys we know get words (the command, the file, the change, the flags that widen what runs);
// every other key is listed as it came, as JSON, under its own heading. Text the model wrote (a
// command, a "why", a file's content) stands in a quoted block: each of its lines begins with the
// gutter `│ `, so no line of it can pass for the card's own words ("Why:", "In:"), and the
// display (src/shared/summary-blocks.ts) shows each block apart with its line count. Pure.

/** The gutter every quoted line begins with; src/shared/summary-blocks.ts reads the same one. */
export const GUTTER = '\u2502 ';

/** Every line break a terminal, an editor or a browser may show as one. */
const BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

/** Text as a quoted block: every line (blank ones too) behind the gutter. */
export function quoted(text: string): string {
  return text.split(BREAKS).map((l) => `${GUTTER}${l}`).join('\n');
}

/** `Label: value` on one line when the value has none of its own, else the label over a quoted block. */
function field(label: string, value: string): string {
  return BREAKS.test(value) ? `${label}:\n${quoted(value)}` : `${label}: ${value}`;
}

const block = (label: string, value: string) => `${label}:\n${quoted(value)}`;
const str = (v: unknown): v is string => typeof v === 'string';

/** What one known key says, or undefined when its value is not of the shape we word (then it is listed as it came). */
type Worder = (value: unknown, input: Record<string, unknown>) => string | undefined;

const commandWords: Worder = (v) => {
  if (str(v)) return block('Will run (command)', v);
  if (Array.isArray(v) && v.length > 0) {
    // Argument boundaries matter (`rm "a b"` is not `rm a b`): one argument a line, as JSON strings.
    const args = v.map((a, i) => `${i + 1}. ${JSON.stringify(a)}`).join('\n');
    return block(`Will run (command), as ${v.length} separate arguments`, args);
  }
  return undefined;
};

const KNOWN: Record<string, Worder> = {
  command: commandWords,
  cmd: (v) => (str(v) ? block('Will run (cmd)', v) : undefined),
  description: (v) => (str(v) ? block('Why, in the assistant\'s words (description)', v) : undefined),
  justification: (v) => (str(v) ? block('Why, in the assistant\'s words (justification)', v) : undefined),
  dangerouslyDisableSandbox: (v) => (typeof v === 'boolean' ? (v ? 'Outside the sandbox (dangerouslyDisableSandbox: true)' : 'dangerouslyDisableSandbox: false') : undefined),
  run_in_background: (v) => (typeof v === 'boolean' ? (v ? 'In the background (run_in_background: true)' : 'run_in_background: false') : undefined),
  timeout: (v) => (typeof v === 'number' ? `Time limit (timeout): ${v} ms` : undefined),
  file_path: (v) => (str(v) ? field('File (file_path)', v) : undefined),
  notebook_path: (v) => (str(v) ? field('Notebook (notebook_path)', v) : undefined),
  path: (v) => (str(v) ? field('Path (path)', v) : undefined),
  old_string: (v) => (str(v) ? block('Replace (old_string)', v) : undefined),
  new_string: (v) => (str(v) ? block('With (new_string)', v) : undefined),
  replace_all: (v) => (typeof v === 'boolean' ? (v ? 'Every occurrence (replace_all: true)' : 'replace_all: false') : undefined),
  content: (v) => (str(v) ? block('Content (content)', v) : undefined),
  edits: (v) => editsWords(v),
  new_source: (v) => (str(v) ? block('New cell source (new_source)', v) : undefined),
  cell_id: (v) => (str(v) ? field('Cell (cell_id)', v) : undefined),
  cell_type: (v) => (str(v) ? field('Cell type (cell_type)', v) : undefined),
  edit_mode: (v) => (str(v) ? field('Edit mode (edit_mode)', v) : undefined),
  url: (v) => (str(v) ? field('Address (url)', v) : undefined),
  prompt: (v) => (str(v) ? block('Prompt (prompt)', v) : undefined),
  query: (v) => (str(v) ? block('Search (query)', v) : undefined),
  subagent_type: (v) => (str(v) ? field('Agent type (subagent_type)', v) : undefined),
};

/** MultiEdit's `edits`, one by one; anything not of that shape is listed as it came. */
function editsWords(v: unknown): string | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const ok = v.every((e) => e && typeof e === 'object' && str((e as Record<string, unknown>).old_string) && str((e as Record<string, unknown>).new_string)
    && Object.keys(e as object).every((k) => ['old_string', 'new_string', 'replace_all'].includes(k)));
  if (!ok) return undefined;
  return (v as Record<string, unknown>[]).map((e, i) => [
    `Edit ${i + 1} of ${v.length} (edits):`,
    block('Replace (old_string)', e.old_string as string),
    block('With (new_string)', e.new_string as string),
    ...(e.replace_all === true ? ['Every occurrence (replace_all: true)'] : e.replace_all === false ? ['replace_all: false'] : []),
  ].join('\n')).join('\n\n');
}

/** The tool's input as the summary's paragraphs: known keys worded, in the input's order; the rest as it came. */
export function inputLines(input: Record<string, unknown>): string[] {
  const lines: string[] = [];
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const worded = Object.hasOwn(KNOWN, key) ? KNOWN[key]!(value, input) : undefined;
    if (worded !== undefined) lines.push(worded);
    else rest[key] = value;
  }
  const n = Object.keys(rest).length;
  if (n > 0) lines.push(block(`Other input, as it came (${n === 1 ? '1 key' : `${n} keys`})`, JSON.stringify(rest, null, 2)));
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
