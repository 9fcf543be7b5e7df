// Claude Code (@anthropic-ai/claude-code): hooks in settings.json, a PermissionRequest hook that
// answers allow or deny (docs/cli-hooks.md, measured).
import * as path from 'node:path';
import { EVENT_TIMEOUT_S, commandHookEntries, parseClaudeShaped, printClaudeShaped, type CliAdapter } from './adapter';

/** Events whose `matcher` is a tool name: ours match every tool. */
const TOOL_EVENTS = new Set(['PermissionRequest', 'PostToolUse', 'PreToolUse']);
/** Claude Code shows its own prompt beside the hook (measured): a long wait costs nothing. */
const PERMISSION_TIMEOUT_S = 600;

export const claudeCode: CliAdapter = {
  id: 'claude-code',
  name: 'Claude Code',
  commandKey: 'ClaudeCode',
  // CLAUDE_CONFIG_DIR, else ~/.claude.
  settingsFile: (env, home) => path.join(env.CLAUDE_CONFIG_DIR ? path.resolve(env.CLAUDE_CONFIG_DIR) : path.join(home, '.claude'), 'settings.json'),
  // Its hooks reference.
  events: ['SessionStart', 'SessionEnd', 'PermissionRequest', 'Notification', 'UserPromptSubmit', 'PostToolUse', 'Stop'],
  permissionEvent: 'PermissionRequest',
  permissionTimeoutS: PERMISSION_TIMEOUT_S,
  entriesFor(command) {
    return commandHookEntries(this, command, {
      timeout: (_event, permission) => (permission ? PERMISSION_TIMEOUT_S : EVENT_TIMEOUT_S),
      group: (event, handler) => (TOOL_EVENTS.has(event) ? { matcher: '*', hooks: [handler] } : { hooks: [handler] }),
    });
  },
  parse: parseClaudeShaped,
  print: printClaudeShaped,
  approveRuns: true,
};
