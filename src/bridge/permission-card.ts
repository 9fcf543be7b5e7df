// A CLI's permission request as an approval card, and the person's answer as the CLI's decision.
// The card shows what will run, whole: the tool, every key of its input (tool-input.ts), and the
// folder it runs in; its title names what is asked. Pure: the hook (hook.ts) does the I/O.
import type { AskedCard, Heard } from '../api/ask-schemas';
import { firstWords, inputLines, quoted } from './tool-input';
import { terminalSafe } from './terminal-safe';
import { say, type BridgeWord } from './words';
import { CLI_NAMES } from './clis/index';
import type { AlwaysAllow, Decision } from './clis/adapter';

/** Each CLI's name by app id: its adapter's (src/bridge/clis/). */
export const APP_NAMES: Readonly<Record<string, string>> = CLI_NAMES;

export interface PermissionRequest {
  tool_name?: unknown;
  tool_input?: unknown;
  cwd?: unknown;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The last part of a path, for a title (the summary names the whole path). */
const baseName = (file: string) => file.split(/[\\/]/).filter(Boolean).pop() ?? file;

/** A title a notification shows whole (shared/notify-rules.ts TITLE_MAX). */
const TITLE_MAX = 100;

/** What a file tool does to its file, in a title. */
const FILE_VERBS: Record<string, BridgeWord> = { Edit: 'edits', MultiEdit: 'edits', NotebookEdit: 'edits', Write: 'writes', Read: 'reads' };

/**
 * The title names what is asked, so two cards differ in the tree: the command's first words, the
 * file's name, the address's host, or the tool. The summary holds it all, whole. In the person's
 * language (words.ts): a translation may put the command anywhere, so its room is what the rest leaves.
 */
function titleOf(who: string, tool: string | undefined, input: Record<string, unknown>): string {
  const command = input.command;
  const hasCommand = typeof command === 'string' ? command.trim() !== '' : Array.isArray(command) && command.length > 0;
  if (hasCommand) {
    const title = (what: string) => (tool === undefined || tool === 'Bash' ? say('runs', who, what) : say('runsWith', who, tool, what));
    // Whole in a notification (its 100 characters): the first words get what the rest leaves.
    return title(firstWords(command as string | unknown[], Math.max(16, TITLE_MAX - title('').length)));
  }
  if (tool === undefined) return say('usesATool', who);
  const file = text(input.file_path) ?? text(input.notebook_path) ?? text(input.path);
  if (file !== undefined) {
    const verb = FILE_VERBS[tool];
    return verb ? say(verb, who, baseName(file)) : say('usesOn', who, tool, baseName(file));
  }
  const url = text(input.url);
  if (url !== undefined) {
    let host = url;
    try { host = new URL(url).host || url; } catch { /* shown as it came */ }
    return say('usesOn', who, tool, firstWords(host));
  }
  const query = text(input.query);
  if (query !== undefined) return say('usesFor', who, tool, firstWords(query));
  return say('uses', who, tool);
}

/** The id of the card's n-th "Always allow" option (1-based). */
export const alwaysOptionId = (n: number) => `always-allow-${n}`;

/** An "Always allow" option's label: the rule(s) and the settings file, whole (#54). */
export function alwaysLabel(a: AlwaysAllow): string {
  return say('alwaysLabel', a.rules.join(' and '), a.file);
}

/** The summary's paragraph for each "Always allow": each rule alone on its quoted line, and the file. */
function alwaysLines(who: string, always: readonly AlwaysAllow[]): string[] {
  return always.map((a) => [
    `${a.rules.length === 1 ? say('alwaysRule', who) : say('alwaysRules', who)}:`,
    quoted(a.rules.join('\n')),
    `${say('settingsFile')}: ${a.file}`,
  ].join('\n'));
}

/**
 * The approval card of a permission request. `always`: the "don't ask again" choices the CLI
 * offers (its adapter's `alwaysAllow`), each an option whose label names the rule and the file.
 */
export function permissionCard(app: string, req: PermissionRequest, always: readonly AlwaysAllow[] = []): AskedCard {
  const tool = text(req.tool_name);
  const input = req.tool_input && typeof req.tool_input === 'object' && !Array.isArray(req.tool_input) ? req.tool_input as Record<string, unknown> : {};
  // An input that is not an object (a CLI's new shape) is still shown, as it came.
  const odd = req.tool_input !== undefined && req.tool_input !== null && input !== req.tool_input
    ? [`${say('inputAsItCame')}:\n${quoted(JSON.stringify(req.tool_input, null, 2) ?? String(req.tool_input))}`] : [];
  const who = APP_NAMES[app] ?? app;
  const cwd = text(req.cwd);
  const toolLine = tool === undefined ? undefined : /[\n\r]/.test(tool) ? `${say('tool')}:\n${quoted(tool)}` : `${say('tool')}: ${tool}`;
  const summary = [...(toolLine ? [toolLine] : []), ...inputLines(input, { ...(tool !== undefined ? { tool } : {}), ...(cwd !== undefined ? { cwd } : {}) }), ...odd, ...(cwd !== undefined ? [/[\n\r]/.test(cwd) ? `${say('folder')}:\n${quoted(cwd)}` : `${say('folder')}: ${cwd}`] : []), ...alwaysLines(who, always)].join('\n\n');
  return {
    kind: 'approval', title: titleOf(who, tool, input), summary, blocking: true, urgency: 'now', reason: 'permission',
    ...(always.length ? { options: always.map((a, i) => ({ id: alwaysOptionId(i + 1), label: alwaysLabel(a) })) } : {}),
  };
}

export const DECLINED = 'The person declined this in Assistant Cards.';

/**
 * What the person's answer means to the CLI. Approve allows; Decline denies with the person's
 * note as the message. Words written on the card deny this call with the words, so the assistant
 * reads them and goes on from there. "You decide" hands the choice back: the CLI's own prompt, as
 * does a helper's answer (only the person decides what a CLI runs). The person's pick of an
 * "Always allow" option (`always`, as the card offered them) allows with that grant: the CLI
 * writes the rule. A helper's never does (#52).
 */
export function decisionOf(heard: readonly Heard[], always: readonly AlwaysAllow[] = []): Decision {
  for (const h of heard) {
    const b = h.body;
    // A helper's answer is never the CLI's decision: another assistant does not approve a command
    // this one runs (#52). The CLI's own prompt decides; a `loop` proposal the person accepts comes as theirs.
    if (h.type === 'helper-answer') continue;
    if (h.type === 'message' && typeof b.body === 'string') {
      return { behavior: 'deny', message: terminalSafe(`The person did not approve this yet and wrote: ${b.body}`) };
    }
    if (b.theyDecide === true) return undefined;
    const chosen = alwaysChosen(b.choiceIds, always);
    if (chosen && b.approved !== false) return { behavior: 'allow', always: chosen };
    if (typeof b.approved === 'boolean') {
      if (b.approved) return { behavior: 'allow' };
      const note = (b.note as { text?: unknown } | undefined)?.text;
      // The CLI shows the message in its terminal: no escape sequences (#52 F12).
      return { behavior: 'deny', message: typeof note === 'string' && note.trim() ? terminalSafe(note) : DECLINED };
    }
  }
  return undefined;
}

/** The "Always allow" an answer's `choiceIds` names, of those the card offered. */
function alwaysChosen(choiceIds: unknown, always: readonly AlwaysAllow[]): AlwaysAllow | undefined {
  if (!Array.isArray(choiceIds) || choiceIds.length !== 1) return undefined;
  const i = always.findIndex((_, n) => alwaysOptionId(n + 1) === choiceIds[0]);
  return i >= 0 ? always[i] : undefined;
}
