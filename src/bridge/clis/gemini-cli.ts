// Gemini CLI (@google/gemini-cli): hooks in ~/.gemini/settings.json (GEMINI_CLI_HOME moves the
// home), Claude Code's layout with its own event names and timeouts in milliseconds. Its BeforeTool
// hook runs before every call of the tools it matches, before Gemini's own policy: a hook can deny
// (the tool does not run, the reason goes to the model) or hand it to the terminal ("ask"); an
// "allow" only lets Gemini's own rule decide next (read in 0.61.0's scheduler: the policy check
// follows the hook whatever it said). So the card's Approve runs the tool only where Gemini's rule
// lets it run without asking (an allow rule, `--approval-mode yolo`); elsewhere Gemini asks in its
// terminal after the card. docs/cli-hooks.md "Gemini CLI" has what was measured.
import * as path from 'node:path';
import { commandHookEntries, str, type CliAdapter, type NeutralEvent, type NeutralKind } from './adapter';

/** The tools Gemini's default policy asks about (its shell, file writes and edits, web fetch). */
export const GEMINI_ASKING_TOOLS = '^(run_shell_command|write_file|replace|web_fetch)$';
/** While the hook waits, Gemini shows the call as pending: two minutes, as for Codex. */
const PERMISSION_TIMEOUT_S = 120;
const EVENT_TIMEOUT_MS = 10_000;

const KIND: Record<string, NeutralKind> = {
  SessionStart: 'live', SessionEnd: 'end', BeforeAgent: 'prompt', AfterTool: 'went-on', AfterAgent: 'went-on',
  Notification: 'waiting', BeforeTool: 'permission',
};

export const geminiCli: CliAdapter = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  order: 30,
  settingsFile: (env, home) => path.join(env.GEMINI_CLI_HOME ? path.resolve(env.GEMINI_CLI_HOME) : home, '.gemini', 'settings.json'),
  events: ['SessionStart', 'SessionEnd', 'BeforeTool', 'Notification', 'BeforeAgent', 'AfterTool', 'AfterAgent'],
  permissionEvent: 'BeforeTool',
  permissionTimeoutS: PERMISSION_TIMEOUT_S,
  entriesFor(command) {
    return commandHookEntries(this, command, {
      // Gemini CLI counts its timeouts in milliseconds.
      timeout: (_event, permission) => (permission ? PERMISSION_TIMEOUT_S * 1000 : EVENT_TIMEOUT_MS),
      group: (event, handler) => (event === this.permissionEvent ? { matcher: GEMINI_ASKING_TOOLS, hooks: [handler] } : { hooks: [handler] }),
    });
  },
  parse(e): NeutralEvent {
    const name = str(e.hook_event_name) ?? '';
    const kind = KIND[name] ?? 'live';
    const message = str(e.message);
    return {
      kind, name, sessionId: str(e.session_id), cwd: str(e.cwd),
      ...(kind === 'waiting' ? { ...(message ? { message } : {}), aboutPermission: e.notification_type === 'ToolPermission' } : {}),
      ...(kind === 'permission' ? { tool: e.tool_name, input: e.tool_input } : {}),
    };
  },
  print: (d) => JSON.stringify(d.behavior === 'allow' ? { decision: 'allow' } : { decision: 'deny', reason: d.message }),
  approveRuns: false,
};
