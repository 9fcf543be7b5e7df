// GitHub Copilot CLI (@github/copilot): hooks in JSON files of ~/.copilot/hooks/ (COPILOT_HOME
// moves it) and of a repository's .github/hooks/, each `{"version": 1, "hooks": {"<event>":
// [{"type": "command", "bash": "…", "timeoutSec": N}]}}`, no matchers. Measured with 1.0.102
// (docs/cli-hooks.md "GitHub Copilot CLI"): the event's JSON on stdin names itself only for
// permissionRequest (`hookName`) and Notification (`hook_event_name`), the others are told by their
// fields; fields are camelCase (sessionId, toolName, toolInput); a permissionRequest hook that
// prints `{"behavior": "allow"}` runs the tool, `{"behavior": "deny", "message": …}` refuses it and
// the model reads the message; printing nothing leaves it to Copilot's own rule.
//
// Its hook file has its own shape (no matcher groups, `bash` for the command): Connect writes a
// file of its own, ~/.copilot/hooks/assistant-cards.json, whole (`wholeFile`), and Disconnect
// removes it.
import * as path from 'node:path';
import { WAIT_MARGIN_S, str, type CliAdapter, type NeutralEvent } from './adapter';

/** Copilot asks in its terminal only after the hook gives up (in -p it refuses): two minutes. */
const PERMISSION_TIMEOUT_S = 120;
const EVENT_TIMEOUT_S = 10;

/** The events ours listens to, as Copilot names them in its hook files. */
const EVENTS = ['sessionStart', 'sessionEnd', 'userPromptSubmitted', 'permissionRequest', 'postToolUse', 'agentStop', 'notification'];

/** One handler of Copilot's hook file. */
export interface CopilotHandler { type: 'command'; bash: string; timeoutSec: number }

/** The whole hook file Connect would write for `command` (a file of its own in the hooks folder). */
export function copilotHookFile(command: string): { version: 1; hooks: Record<string, CopilotHandler[]> } {
  return {
    version: 1,
    hooks: Object.fromEntries(EVENTS.map((event) => [event, [event === 'permissionRequest'
      ? { type: 'command', bash: `${command} --wait ${PERMISSION_TIMEOUT_S - WAIT_MARGIN_S}`, timeoutSec: PERMISSION_TIMEOUT_S }
      : { type: 'command', bash: command, timeoutSec: EVENT_TIMEOUT_S }]])),
  } as { version: 1; hooks: Record<string, CopilotHandler[]> };
}

/** Which event a stdin JSON is, from its fields (measured: only two name themselves). */
function eventOf(e: Record<string, unknown>): { name: string; kind: NeutralEvent['kind'] } {
  if (e.hookName === 'permissionRequest') return { name: 'permissionRequest', kind: 'permission' };
  if (e.hook_event_name === 'Notification') return { name: 'notification', kind: 'waiting' };
  if (typeof e.stopReason === 'string') return { name: 'agentStop', kind: 'went-on' };
  if (typeof e.toolName === 'string' && 'toolResult' in e) return { name: 'postToolUse', kind: 'went-on' };
  if (typeof e.prompt === 'string' && !('source' in e)) return { name: 'userPromptSubmitted', kind: 'prompt' };
  if (typeof e.reason === 'string' && !('source' in e)) return { name: 'sessionEnd', kind: 'end' };
  return { name: typeof e.source === 'string' ? 'sessionStart' : 'other', kind: 'live' };
}

export const copilotCli: CliAdapter = {
  id: 'copilot-cli',
  name: 'Copilot CLI',
  order: 40,
  // The spec's app enum has no Copilot: the service knows it as `other`, named "Copilot CLI".
  serviceApp: 'other',
  settingsFile: (env, home) => path.join(env.COPILOT_HOME ? path.resolve(env.COPILOT_HOME) : path.join(home, '.copilot'), 'hooks', 'assistant-cards.json'),
  events: EVENTS,
  permissionEvent: 'permissionRequest',
  permissionTimeoutS: PERMISSION_TIMEOUT_S,
  // Not Claude's layout: a whole file of ours (copilotHookFile).
  wholeFile: copilotHookFile,
  entriesFor: () => ({}),
  parse(e): NeutralEvent {
    const { name, kind } = eventOf(e);
    const message = str(e.message);
    return {
      kind, name, sessionId: str(e.sessionId) ?? str(e.session_id), cwd: str(e.cwd),
      ...(kind === 'waiting' ? { ...(message ? { message } : {}), aboutPermission: e.notification_type === 'permission_prompt' } : {}),
      ...(kind === 'permission' ? { tool: e.toolName, input: e.toolInput } : {}),
    };
  },
  print: (d) => JSON.stringify(d.behavior === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: d.message }),
  approveRuns: true,
};
