// What one assistant CLI is to Assistant Cards, in one place (#54): the user settings file its hooks
// live in and the entries Connect adds there, how its hook event reads as one neutral event, how a
// decision is printed back, its timeouts and its name. hook.ts works on the neutral event only;
// Connect, its two commands and the Assistants view take the list in ./index.ts, which a new
// adapter file joins by itself (scripts/gen-clis.mjs writes ./all.generated.ts from this
// folder). Pure and without `vscode`.
//
// A CLI whose permission requests come over its own server rather than through a hook command
// (OpenCode) gets a plugin of ours instead of hook entries (`plugin`): the plugin hands the
// server's events to the same hook command, so everything past Connect is the same (./opencode.ts).

/** One hook handler as the CLIs write it (Claude Code, Codex and Gemini CLI share this shape). */
export interface HookHandler { type: 'command'; command: string; timeout: number }
export interface MatcherGroup { matcher?: string; hooks: HookHandler[] }

/** What happened in the CLI, whatever it calls it. */
export type NeutralKind =
  /** The session started (or anything else that says it is live). */
  | 'live'
  | 'end'
  /** The person typed a prompt: every open card of the session closes. */
  | 'prompt'
  /** The CLI went on (a tool ran, a turn stopped): a permission asked was answered in its terminal. */
  | 'went-on'
  /** The CLI waits for the person in its terminal. */
  | 'waiting'
  /** A tool call waits for permission: a card, and the person's answer printed back. */
  | 'permission';

export interface NeutralEvent {
  kind: NeutralKind;
  /** The CLI's own name of the event, for the log. */
  name: string;
  sessionId: string | undefined;
  cwd: string | undefined;
  /** `waiting`: the CLI's words; `aboutPermission`: it only repeats a permission request. */
  message?: string;
  aboutPermission?: boolean;
  /** `permission`: the tool and its input as the CLI sent them. */
  tool?: unknown;
  input?: unknown;
  /**
   * The CLI's own process, where it names it (OpenCode's plugin): when it stops while a card waits,
   * the card is withdrawn and the session ends (a CLI that runs hooks ends them itself).
   */
  ownerPid?: number;
}

/**
 * A "don't ask again" the CLI's own prompt offers for one permission request (#54): the rule(s)
 * in the CLI's own syntax and the settings file the CLI writes them to, as the card shows them,
 * and `grant`, what the hook prints back so that the CLI writes exactly that itself.
 */
export interface AlwaysAllow {
  /** Each rule as it will read in the settings file (Claude Code: `Bash(npm run *)`). */
  rules: string[];
  /** The settings file, whole (absolute path). */
  file: string;
  /** The CLI's own grant, built from the same fields as `rules` and `file` (never passed through unread). */
  grant: unknown;
}

/**
 * The CLI's decision. `undefined`: print nothing, and the CLI's own way decides. `always`: the
 * person chose the card's "Always allow" (only ever one the adapter's `alwaysAllow` offered).
 */
export type Decision = { behavior: 'allow'; updatedInput?: Record<string, unknown>; always?: AlwaysAllow } | { behavior: 'deny'; message: string } | undefined;

export interface CliAdapter {
  /** The app id: `hook <id>` on the command line, the service's `app`. */
  readonly id: string;
  /** The product's name, as people know it (not translated). */
  readonly name: string;
  /**
   * The `app` the service is told, when the id is not in the spec's app enum (person-api.md lists
   * 13 values; the service refuses others): the name then says which CLI it is.
   */
  readonly serviceApp?: string;
  /**
   * Where it stands in every list of CLIs (the Connect pick, the Assistants view, CLIS): smaller
   * first. The adapters' list is generated from this folder (scripts/gen-clis.mjs), sorted by it.
   */
  readonly order: number;
  /** The user settings file its hooks are read from (`env` and `home` for tests). */
  settingsFile(env: NodeJS.ProcessEnv, home: string): string;
  /** The events Connect adds an entry for, in the order written. */
  readonly events: readonly string[];
  /** The event that asks permission (its hook waits for the card). */
  readonly permissionEvent: string;
  /** How long the CLI waits on the permission hook, in seconds (the bridge gives up a little before). */
  readonly permissionTimeoutS: number;
  /**
   * A CLI whose hooks live in files of their own (Copilot CLI's hooks folder): the whole file
   * Connect writes at `settingsFile`, and Disconnect removes. Undefined: Connect edits a shared
   * settings file with `entriesFor`.
   */
  wholeFile?(command: string): unknown;
  /**
   * A CLI that runs a program of ours rather than hook entries (OpenCode's plugin): Connect writes
   * the whole file at `settingsFile` (its text is in connect-settings' PLUGIN_FILES, which the hook
   * does not load), Disconnect removes it while it is ours as written.
   */
  readonly plugin?: boolean;
  /**
   * A CLI that may run its hooks in a shared background server rather than in the terminal's own
   * process (plain `codex`): the hook looks for the session's UI (terminal.ts `sharedServerUi`).
   * Other CLIs' hooks do not read the process's command line for it.
   */
  readonly hooksInSharedServer?: boolean;
  /** The entries Connect adds, per event, for the hook `command` (`--wait` added where it asks). */
  entriesFor(command: string): Record<string, MatcherGroup>;
  /** The event the CLI wrote on stdin, as the neutral event. */
  parse(event: Record<string, unknown>): NeutralEvent;
  /** What the hook prints for a decision (the CLI's own format). */
  print(decision: Exclude<Decision, undefined>): string;
  /**
   * The "don't ask again" choices the CLI's own prompt offers for this permission event (the raw
   * stdin JSON), each with its rule and the settings file it goes to. Absent: the CLI has no such
   * choice (or none a hook can take), and the card offers none. `env` is the hook's environment.
   */
  alwaysAllow?(event: Record<string, unknown>, env: NodeJS.ProcessEnv, home: string): AlwaysAllow[];
  /** Whether "Approve" on the card lets the tool run (false: it only lets the CLI's own rule decide). */
  readonly approveRuns: boolean;
}

/** The bridge gives up this much before the CLI's timeout: it withdraws the card and exits on its own terms. */
export const WAIT_MARGIN_S = 10;
/** The other events only tell the service what happened: the bridge answers them at once. */
export const EVENT_TIMEOUT_S = 10;

/**
 * Connect's entries for a hooks file shaped like Claude Code's: one command hook for each listed
 * event, the permission event's waiting `permissionTimeoutS` less the margin. What differs by CLI
 * is the unit and length of each timeout and the matcher group around the handler.
 */
export function commandHookEntries(
  cli: Pick<CliAdapter, 'events' | 'permissionEvent' | 'permissionTimeoutS'>,
  command: string,
  o: { timeout(event: string, permission: boolean): number; group(event: string, handler: HookHandler): MatcherGroup },
): Record<string, MatcherGroup> {
  const out: Record<string, MatcherGroup> = {};
  for (const event of cli.events) {
    const permission = event === cli.permissionEvent;
    const handler: HookHandler = { type: 'command', command: permission ? `${command} --wait ${cli.permissionTimeoutS - WAIT_MARGIN_S}` : command, timeout: o.timeout(event, permission) };
    out[event] = o.group(event, handler);
  }
  return out;
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** Claude Code's event names (Codex follows them): the neutral kind of each. */
export function claudeShapedKind(event: string): NeutralKind {
  switch (event) {
    case 'SessionEnd': return 'end';
    case 'UserPromptSubmit': return 'prompt';
    case 'PostToolUse': case 'Stop': return 'went-on';
    case 'Notification': return 'waiting';
    case 'PermissionRequest': return 'permission';
    default: return 'live';
  }
}

/** A Claude-shaped hook event (Claude Code, Codex) as the neutral event. */
export function parseClaudeShaped(e: Record<string, unknown>): NeutralEvent {
  const name = str(e.hook_event_name) ?? '';
  const kind = claudeShapedKind(name);
  const message = str(e.message);
  return {
    kind, name, sessionId: str(e.session_id), cwd: str(e.cwd),
    ...(kind === 'waiting' ? {
      ...(message ? { message } : {}),
      aboutPermission: e.notification_type === 'permission_prompt' || (message !== undefined && /\bpermission\b/i.test(message)),
    } : {}),
    ...(kind === 'permission' ? { tool: e.tool_name, input: e.tool_input } : {}),
  };
}

/**
 * Claude Code's and Codex's PermissionRequest output: the decision's own fields only, and `allowToo`
 * added to an allow (Claude Code's `updatedPermissions` for an `always`, which only it prints).
 */
export function printClaudeShaped(d: Exclude<Decision, undefined>, allowToo?: Record<string, unknown>): string {
  const decision = d.behavior === 'allow' ? { behavior: 'allow', ...(d.updatedInput ? { updatedInput: d.updatedInput } : {}), ...allowToo } : { behavior: 'deny', message: d.message };
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
}
