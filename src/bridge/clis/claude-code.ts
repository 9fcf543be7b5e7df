// Claude Code (@anthropic-ai/claude-code): hooks in settings.json, a PermissionRequest hook that
// answers allow or deny (docs/cli-hooks.md, measured). Its PermissionRequest carries the "don't
// ask again" its own prompt offers (`permission_suggestions`); a decision that allows with
// `updatedPermissions` makes Claude Code write that rule itself (measured with 2.1.332, #54).
import * as path from 'node:path';
import { EVENT_TIMEOUT_S, commandHookEntries, parseClaudeShaped, printClaudeShaped, type AlwaysAllow, type CliAdapter } from './adapter';

/** Events whose `matcher` is a tool name: ours match every tool. */
const TOOL_EVENTS = new Set(['PermissionRequest', 'PostToolUse', 'PreToolUse']);
/** Claude Code shows its own prompt beside the hook (measured): a long wait costs nothing. */
const PERMISSION_TIMEOUT_S = 600;
/** At most this many "Always allow" choices on one card (Claude Code offers one, measured). */
const MAX_ALWAYS = 3;
/** A rule longer than this is left to the terminal's prompt (the card's option must show it whole). */
const MAX_RULE = 2_000;

/** The user settings file: CLAUDE_CONFIG_DIR, else ~/.claude. */
const userSettings = (env: NodeJS.ProcessEnv, home: string) =>
  path.join(env.CLAUDE_CONFIG_DIR ? path.resolve(env.CLAUDE_CONFIG_DIR) : path.join(home, '.claude'), 'settings.json');

/** Control characters and every line break: text holding one has no exact one-line form. */
// eslint-disable-next-line no-control-regex -- these are what it looks for
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * The settings file a suggestion's `destination` names. The project's files are under the folder
 * Claude Code started in, which it gives its hooks as CLAUDE_PROJECT_DIR (measured: the event's
 * `cwd` follows a `cd`, the file does not). `session` and `cliArg` name no file: not offered.
 */
function fileOf(destination: unknown, env: NodeJS.ProcessEnv, home: string): string | undefined {
  const project = typeof env.CLAUDE_PROJECT_DIR === 'string' && path.isAbsolute(env.CLAUDE_PROJECT_DIR) ? env.CLAUDE_PROJECT_DIR : undefined;
  switch (destination) {
    case 'localSettings': return project && path.join(project, '.claude', 'settings.local.json');
    case 'projectSettings': return project && path.join(project, '.claude', 'settings.json');
    case 'userSettings': return userSettings(env, home);
    default: return undefined;
  }
}

/**
 * The "don't ask again" choices of a PermissionRequest: its `permission_suggestions` that add
 * allow rules to a settings file. Each is rebuilt from the fields shown (tool name, rule content,
 * destination), so what Claude Code is told to write is what the card said. A suggestion of
 * another kind (addDirectories, setMode), for the session only, or with a rule that has no exact
 * one-line form, is left to the terminal's own prompt.
 */
export function claudeAlwaysAllow(event: Record<string, unknown>, env: NodeJS.ProcessEnv, home: string): AlwaysAllow[] {
  const suggestions = Array.isArray(event.permission_suggestions) ? event.permission_suggestions as unknown[] : [];
  const out: AlwaysAllow[] = [];
  for (const s of suggestions) {
    if (out.length >= MAX_ALWAYS) break;
    if (!s || typeof s !== 'object') continue;
    const { type, behavior, destination, rules } = s as Record<string, unknown>;
    if (type !== 'addRules' || behavior !== 'allow' || !Array.isArray(rules) || rules.length === 0) continue;
    const file = fileOf(destination, env, home);
    if (!file || NOT_ONE_LINE.test(file)) continue;
    const kept: { toolName: string; ruleContent?: string }[] = [];
    for (const r of rules as unknown[]) {
      const { toolName, ruleContent } = (r && typeof r === 'object' ? r : {}) as Record<string, unknown>;
      if (typeof toolName !== 'string' || !toolName || (ruleContent !== undefined && typeof ruleContent !== 'string')) break;
      kept.push({ toolName, ...(typeof ruleContent === 'string' ? { ruleContent } : {}) });
    }
    if (kept.length !== rules.length) continue;
    // Claude Code's own rule syntax, as the settings file's `permissions.allow` holds it.
    const shown = kept.map((r) => (r.ruleContent !== undefined ? `${r.toolName}(${r.ruleContent})` : r.toolName));
    if (shown.some((r) => NOT_ONE_LINE.test(r) || r.length > MAX_RULE)) continue;
    out.push({ rules: shown, file, grant: { type: 'addRules', rules: kept, behavior: 'allow', destination } });
  }
  return out;
}

export const claudeCode: CliAdapter = {
  id: 'claude-code',
  name: 'Claude Code',
  order: 10,
  settingsFile: userSettings,
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
  // An "Always allow" the person chose: the grant goes back as `updatedPermissions`, and Claude Code writes the rule.
  print: (d) => printClaudeShaped(d, d.behavior === 'allow' && d.always ? { updatedPermissions: [d.always.grant] } : undefined),
  alwaysAllow: claudeAlwaysAllow,
  approveRuns: true,
};
