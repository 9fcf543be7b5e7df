// OpenCode (opencode-ai): no hook commands. Its permission requests come over its own server, as a
// `permission.asked` event, and are answered there with once, always or reject
// (`POST /permission/:requestID/reply` {reply, message}); a reject's message reaches the model as
// the person's feedback. A plugin (a JS file in its config folder's plugins/, loaded at start) sees
// every event of its server and holds a client of it, in the terminal UI too, where the server runs
// in-process. Read in 1.18.33's bundle: the plugin hook `permission.ask` is typed but never called,
// so the server's event is the way (docs/cli-hooks.md "OpenCode" has what was measured).
//
// So Connect writes a file of its own, <config>/opencode/plugins/assistant-cards.js, whole
// (./opencode-plugin.ts): a few lines that hand each event to the same hook command as the other CLIs (`hook opencode`, the
// event's JSON on stdin) and post the printed decision back as OpenCode's reply. Disconnect removes
// the file when it is ours as written. The hook itself is the shared one (hook.ts): this adapter
// reads the plugin's events into the neutral event and prints the reply the plugin posts.
import * as path from 'node:path';
import { str, type CliAdapter, type NeutralEvent, type NeutralKind } from './adapter';

/**
 * OpenCode itself never gives up on a permission (its prompt waits in the terminal): the card
 * waits two minutes, as for the others, then is withdrawn and OpenCode's own prompt decides.
 */
export const PERMISSION_TIMEOUT_S = 120;

/** The events the plugin hands to the hook, by the names it gives them. */
const KIND: Record<string, NeutralKind> = {
  'permission.asked': 'permission',
  'session.deleted': 'end',
  // OpenCode stopping (its instance disposed): each session that asked through us ends.
  'instance.disposed': 'end',
};

/** The folder OpenCode reads its user config from: $XDG_CONFIG_HOME/opencode, else ~/.config/opencode. */
function openCodeConfigDir(env: NodeJS.ProcessEnv, home: string): string {
  return path.join(env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(home, '.config'), 'opencode');
}

export const openCode: CliAdapter = {
  id: 'opencode',
  name: 'OpenCode',
  order: 50,
  settingsFile: (env, home) => path.join(openCodeConfigDir(env, home), 'plugins', 'assistant-cards.js'),
  events: ['permission.asked', 'permission.replied', 'session.deleted'],
  permissionEvent: 'permission.asked',
  permissionTimeoutS: PERMISSION_TIMEOUT_S,
  // The plugin's text is Connect's alone (./opencode-plugin.ts): the hook never needs it.
  plugin: true,
  entriesFor: () => ({}),
  parse(e): NeutralEvent {
    const name = str(e.event) ?? '';
    const kind = KIND[name] ?? 'live';
    const metadata = e.metadata && typeof e.metadata === 'object' && !Array.isArray(e.metadata) ? e.metadata as Record<string, unknown> : {};
    return {
      kind, name, sessionId: str(e.session_id), cwd: str(e.cwd),
      ...(typeof e.pid === 'number' && Number.isInteger(e.pid) && e.pid > 0 ? { ownerPid: e.pid } : {}),
      // The card shows what OpenCode says it asks: its metadata (a command, a file and its diff) and the patterns a rule would match.
      ...(kind === 'permission' ? { tool: e.permission, input: { ...metadata, ...(Array.isArray(e.patterns) ? { patterns: e.patterns } : {}) } } : {}),
    };
  },
  // Approve is "once": OpenCode's "always" writes a rule, which only the person's own choice may do.
  print: (d) => JSON.stringify(d.behavior === 'allow' ? { reply: 'once' } : { reply: 'reject', message: d.message }),
  approveRuns: true,
};
