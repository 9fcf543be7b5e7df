// The messages the bridge writes for the person (words.ts says how they reach the hook in the
// person's language). Apart from words.ts so the extension's writer of the words file
// (src/editor/connect/bridge-words-file.ts) takes the list alone. Pure.

/** The file in the bridge home: `{ "language": "de", "words": { "<English>": "<translation>" } }`. */
export const WORDS_FILE = 'words.json';

/**
 * Every message the bridge writes for the person, by key. scripts/l10n-bundle.mjs reads these
 * values into l10n/bundle.l10n.json (so the de, ja and pseudo-locale bundles carry them); keep
 * each value a plain string literal.
 */
export const BRIDGE_WORDS = {
  runs: '{0} asks to run: {1}',
  runsWith: '{0} asks to use {1} to run: {2}',
  edits: '{0} asks to edit {1}',
  writes: '{0} asks to write {1}',
  reads: '{0} asks to read {1}',
  usesOn: '{0} asks to use {1} on {2}',
  usesFor: '{0} asks to use {1}: {2}',
  uses: '{0} asks to use {1}',
  usesATool: '{0} asks to use a tool',
  tool: 'Tool',
  folder: 'In',
  inputAsItCame: 'Input, as it came',
  waitsTitle: '{0} waits for you in its terminal',
  waitsSummary: '{0} is waiting for your input',
  asks: '{0} asks.',
  asksQuestions: '{0} asks {1} questions',
  command: 'Will run (command)',
  commandArgs: 'Will run (command), as {0} separate arguments',
  cmd: 'Will run (cmd)',
  description: 'Why, in the assistant\'s words (description)',
  justification: 'Why, in the assistant\'s words (justification)',
  outsideSandbox: 'Outside the sandbox (dangerouslyDisableSandbox: true)',
  inBackground: 'In the background (run_in_background: true)',
  timeLimit: 'Time limit (timeout): {0} ms',
  file: 'File (file_path)',
  notebook: 'Notebook (notebook_path)',
  path: 'Path (path)',
  replace: 'Replace (old_string)',
  with: 'With (new_string)',
  everyOccurrence: 'Every occurrence (replace_all: true)',
  content: 'Content (content)',
  newSource: 'New cell source (new_source)',
  cell: 'Cell (cell_id)',
  cellType: 'Cell type (cell_type)',
  editMode: 'Edit mode (edit_mode)',
  address: 'Address (url)',
  prompt: 'Prompt (prompt)',
  search: 'Search (query)',
  agentType: 'Agent type (subagent_type)',
  editOf: 'Edit {0} of {1} (edits)',
  otherInputOne: 'Other input, as it came (1 key)',
  otherInput: 'Other input, as it came ({0} keys)',
  alwaysLabel: 'Always allow: {0} in {1}',
  alwaysRule: 'Always allow, as {0}\'s own prompt offers it: {0} writes this rule to its settings file and asks no more for the calls it matches',
  alwaysRules: 'Always allow, as {0}\'s own prompt offers it: {0} writes these rules to its settings file and asks no more for the calls they match',
  settingsFile: 'Settings file',
} as const;
