// A CLI's permission request as an approval card, and the person's answer as the CLI's decision.
// The card shows what will run, whole: the tool, the full command or the file and its change, and
// the folder it runs in. Pure: the hook (hook.ts) does the I/O.
import type { CardAsk, Heard } from './asker';

export const APP_NAMES: Record<string, string> = { 'claude-code': 'Claude Code', codex: 'Codex' };

export interface PermissionRequest {
  tool_name?: unknown;
  tool_input?: unknown;
  cwd?: unknown;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The tool's input as lines a person reads: the command, or the file and its change, else JSON. */
function describeInput(tool: string, input: Record<string, unknown>): string[] {
  const command = text(input.command) ?? (Array.isArray(input.command) ? input.command.map(String).join(' ') : undefined);
  if (command !== undefined) {
    return [`Command:\n${command}`, ...(text(input.description) ? [`Why: ${text(input.description)!}`] : [])];
  }
  const file = text(input.file_path) ?? text(input.path) ?? text(input.notebook_path);
  if (file !== undefined) {
    const lines = [`File: ${file}`];
    if (text(input.old_string) !== undefined || text(input.new_string) !== undefined) {
      lines.push(`Replace:\n${text(input.old_string) ?? ''}`, `With:\n${text(input.new_string) ?? ''}`);
      if (input.replace_all === true) lines.push('Every occurrence.');
    } else if (text(input.content) !== undefined) {
      lines.push(`Content:\n${text(input.content)!}`);
    } else if (Array.isArray(input.edits)) {
      lines.push(`Edits:\n${JSON.stringify(input.edits, null, 2)}`);
    }
    return lines;
  }
  return [`${tool} input:\n${JSON.stringify(input, null, 2)}`];
}

export function permissionCard(app: string, req: PermissionRequest): CardAsk {
  const tool = text(req.tool_name) ?? 'a tool';
  const input = req.tool_input && typeof req.tool_input === 'object' ? req.tool_input as Record<string, unknown> : {};
  const who = APP_NAMES[app] ?? app;
  const cwd = text(req.cwd);
  const file = text(input.file_path) ?? text(input.path);
  const title = tool === 'Bash' || text(input.command) !== undefined ? `${who} asks to run a command`
    : file !== undefined ? `${who} asks to use ${tool} on a file`
      : `${who} asks to use ${tool}`;
  const summary = [`Tool: ${tool}`, ...describeInput(tool, input), ...(cwd ? [`In: ${cwd}`] : [])].join('\n\n');
  return { kind: 'approval', title, summary, blocking: true, urgency: 'now', reason: 'permission' };
}

/** The CLI's decision. `undefined`: print nothing, and the CLI's own prompt decides. */
export type Decision = { behavior: 'allow'; updatedInput?: Record<string, unknown> } | { behavior: 'deny'; message: string } | undefined;

export const DECLINED = 'The person declined this in Assistant Cards.';

/**
 * What the person's answer means to the CLI. Approve allows; Decline denies with the person's
 * note as the message. Words written on the card deny this call with the words, so the assistant
 * reads them and goes on from there. "You decide" hands the choice back: the CLI's own prompt.
 */
export function decisionOf(heard: readonly Heard[]): Decision {
  for (const h of heard) {
    const b = h.body;
    if (h.type === 'message' && typeof b.body === 'string') {
      return { behavior: 'deny', message: `The person did not approve this yet and wrote: ${b.body}` };
    }
    if (b.theyDecide === true) return undefined;
    if (typeof b.approved === 'boolean') {
      if (b.approved) return { behavior: 'allow' };
      const note = (b.note as { text?: unknown } | undefined)?.text;
      return { behavior: 'deny', message: typeof note === 'string' && note.trim() ? note : DECLINED };
    }
  }
  return undefined;
}

/** The hook's stdout for a decision (Claude Code's and Codex's PermissionRequest output). */
export function decisionOutput(d: Exclude<Decision, undefined>): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: d } });
}
