// Each connected CLI's permission event as the real CLI writes it on its hook's stdin (captured
// runs in docs/cli-hooks.md: Claude Code 2.1, Codex 0.171, Gemini CLI 0.61.0, Copilot CLI 1.0.102),
// and what its hook prints for Approve. The workbench test (test/editor/cli-cards.test.ts) and the
// bench (bench/host/card-to-tree.ts) run the bridge's hook with these, one CLI a row; the real CLIs
// themselves are proven in plain Node (test/bridge/real-*.test.ts).
//
// OpenCode has no hook of its own: the plugin Connect writes hands its server's `permission.asked`
// to the same hook command (src/bridge/clis/opencode-plugin.ts), and its row is that plugin's
// event; its command is read from the plugin file, not a settings file.
import { openCodePluginCommand } from '../../src/bridge/clis/opencode-plugin';
import { PERMISSION_TIMEOUT_S as OPENCODE_TIMEOUT_S } from '../../src/bridge/clis/opencode';
import { WAIT_MARGIN_S } from '../../src/bridge/clis/adapter';

export interface CliPermissionRow {
  /** The adapter's id: `hook <id>`. */
  cli: 'claude-code' | 'codex' | 'gemini-cli' | 'copilot-cli' | 'opencode';
  /** Its name as the card and the notification say it. */
  name: string;
  /** The event Connect's entry runs the waiting hook for, and where that entry sits in its settings. */
  permissionEvent: string;
  /** The tool name the CLI gives its shell. */
  shellTool: string;
  /** The event on stdin for a shell command. */
  event(o: { sessionId: string; cwd: string; command: string }): Record<string, unknown>;
  /** Approve, as the hook prints it for this CLI. */
  allowPrinted: RegExp;
}

export const CLI_PERMISSION_ROWS: readonly CliPermissionRow[] = [
  {
    cli: 'claude-code', name: 'Claude Code', permissionEvent: 'PermissionRequest', shellTool: 'Bash',
    event: ({ sessionId, cwd, command }) => ({
      session_id: sessionId, transcript_path: `${cwd}/.claude/${sessionId}.jsonl`, cwd, prompt_id: `${sessionId}-p1`, permission_mode: 'default',
      effort: { level: 'medium' }, hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command, description: 'Run a command' },
      permission_suggestions: [{ type: 'addDirectories', directories: [cwd], destination: 'session' }],
    }),
    allowPrinted: /"hookEventName":"PermissionRequest","decision":\{"behavior":"allow"\}/,
  },
  {
    cli: 'codex', name: 'Codex', permissionEvent: 'PermissionRequest', shellTool: 'Bash',
    event: ({ sessionId, cwd, command }) => ({
      session_id: sessionId, turn_id: `${sessionId}-t1`, transcript_path: `${cwd}/.codex/rollout-${sessionId}.jsonl`, cwd,
      hook_event_name: 'PermissionRequest', model: 'gpt-5', permission_mode: 'default', tool_name: 'Bash',
      tool_input: { command, description: 'Run this command outside the sandbox?' },
    }),
    allowPrinted: /"hookEventName":"PermissionRequest","decision":\{"behavior":"allow"\}/,
  },
  {
    cli: 'gemini-cli', name: 'Gemini CLI', permissionEvent: 'BeforeTool', shellTool: 'run_shell_command',
    event: ({ sessionId, cwd, command }) => ({
      session_id: sessionId, transcript_path: `${cwd}/.gemini/${sessionId}.json`, cwd, hook_event_name: 'BeforeTool',
      timestamp: new Date().toISOString(), tool_name: 'run_shell_command', tool_input: { command, description: 'Run a command' },
    }),
    allowPrinted: /^\{"decision":"allow"\}$/m,
  },
  {
    cli: 'copilot-cli', name: 'Copilot CLI', permissionEvent: 'permissionRequest', shellTool: 'bash',
    event: ({ sessionId, cwd, command }) => ({
      sessionId, timestamp: Date.now(), cwd, hookName: 'permissionRequest', toolName: 'bash',
      toolInput: { command, description: 'Run a command', shellId: 'main' }, permissionSuggestions: [],
    }),
    allowPrinted: /^\{"behavior":"allow"\}$/m,
  },
  {
    cli: 'opencode', name: 'OpenCode', permissionEvent: 'permission.asked', shellTool: 'bash',
    // As the plugin writes it on stdin (opencode-plugin.ts `run`), OpenCode's own pid left out: no process to watch here.
    event: ({ sessionId, cwd, command }) => ({
      event: 'permission.asked', session_id: sessionId, request_id: `per_${sessionId}`, permission: 'bash', patterns: [command],
      metadata: { command, description: 'Run a command' }, cwd,
    }),
    allowPrinted: /^\{"reply":"once"\}$/m,
  },
];

/** The hook command Connect wrote for the CLI's permission event, read from its settings file's text. */
export function connectedPermissionCommand(row: CliPermissionRow, text: string): string | undefined {
  if (row.cli === 'opencode') {
    const command = openCodePluginCommand(text);
    return command === undefined ? undefined : `${command} --wait ${OPENCODE_TIMEOUT_S - WAIT_MARGIN_S}`;
  }
  const settings = JSON.parse(text) as unknown;
  const hooks = (settings as { hooks?: Record<string, unknown[]> } | undefined)?.hooks?.[row.permissionEvent];
  const first = hooks?.[0] as { bash?: string; hooks?: { command?: string }[] } | undefined;
  return row.cli === 'copilot-cli' ? first?.bash : first?.hooks?.[0]?.command;
}
