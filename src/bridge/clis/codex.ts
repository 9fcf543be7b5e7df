// Codex (@openai/codex): hooks.json in CODEX_HOME, Claude Code's shape and event names, a
// PermissionRequest hook that answers allow or deny (docs/cli-hooks.md, measured with 0.171).
import * as path from 'node:path';
import { EVENT_TIMEOUT_S, commandHookEntries, parseClaudeShaped, printClaudeShaped, type CliAdapter } from './adapter';

/** Codex asks in its terminal only after the hook gives up: two minutes, enough to answer from the notification. */
const PERMISSION_TIMEOUT_S = 120;
/**
 * Codex 0.171 clamps a SessionEnd hook's timeout to 3 s and prints a warning in the person's
 * terminal at every start when it is longer (measured): ours asks for 3 s (the bridge's calls give
 * up after 2.5 s, `CALL_TIMEOUT_MS`).
 */
export const CODEX_SESSION_END_TIMEOUT_S = 3;

export const codex: CliAdapter = {
  id: 'codex',
  name: 'Codex',
  order: 20,
  // CODEX_HOME, else ~/.codex (Codex also reads inline `[hooks]` of config.toml; the JSON file keeps config.toml untouched).
  settingsFile: (env, home) => path.join(env.CODEX_HOME ? path.resolve(env.CODEX_HOME) : path.join(home, '.codex'), 'hooks.json'),
  // The events a run of Codex 0.171 fired (measured); Codex has no Notification event.
  events: ['SessionStart', 'SessionEnd', 'PermissionRequest', 'UserPromptSubmit', 'PostToolUse', 'Stop'],
  permissionEvent: 'PermissionRequest',
  permissionTimeoutS: PERMISSION_TIMEOUT_S,
  entriesFor(command) {
    return commandHookEntries(this, command, {
      timeout: (event, permission) => (permission ? PERMISSION_TIMEOUT_S : event === 'SessionEnd' ? CODEX_SESSION_END_TIMEOUT_S : EVENT_TIMEOUT_S),
      // Codex's matcher is a regular expression ("*" is not one): left out, it matches everything.
      group: (_event, handler) => ({ hooks: [handler] }),
    });
  },
  parse: parseClaudeShaped,
  print: printClaudeShaped,
  approveRuns: true,
  hooksInSharedServer: true,
};
