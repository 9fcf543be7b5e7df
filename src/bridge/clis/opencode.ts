// OpenCode (opencode-ai): no hook commands. Its permission requests come over its own server, as a
// `permission.asked` event, and are answered there with once, always or reject
// (`POST /permission/:requestID/reply` {reply, message}); a reject's message reaches the model as
// the person's feedback. A plugin (a JS file in its config folder's plugins/, loaded at start) sees
// every event of its server and holds a client of it, in the terminal UI too, where the server runs
// in-process. Read in 1.18.33's bundle: the plugin hook `permission.ask` is typed but never called,
// so the server's event is the way (docs/cli-hooks.md "OpenCode" has what was measured).
//
// So Connect writes a file of its own, <config>/opencode/plugins/assistant-cards.js, whole: a few
// lines that hand each event to the same hook command as the other CLIs (`hook opencode`, the
// event's JSON on stdin) and post the printed decision back as OpenCode's reply. Disconnect removes
// the file when it is ours as written. The hook itself is the shared one (hook.ts): this adapter
// reads the plugin's events into the neutral event and prints the reply the plugin posts.
import * as path from 'node:path';
import { WAIT_MARGIN_S, str, type CliAdapter, type NeutralEvent, type NeutralKind } from './adapter';

/**
 * OpenCode itself never gives up on a permission (its prompt waits in the terminal): the card
 * waits two minutes, as for the others, then is withdrawn and OpenCode's own prompt decides.
 */
const PERMISSION_TIMEOUT_S = 120;

/** The events the plugin hands to the hook, by the names it gives them. */
const KIND: Record<string, NeutralKind> = {
  'permission.asked': 'permission',
  'session.deleted': 'end',
  // OpenCode stopping (its instance disposed): each session that asked through us ends.
  'instance.disposed': 'end',
};

/** The file's first line: how a person opening it knows whose it is. */
const HEAD = '// Assistant Cards: OpenCode\'s permission requests as cards in VS Code.';

/**
 * The plugin, whole, for the hook `command`. Plain JavaScript that OpenCode (Bun) loads as is; it
 * never answers by itself: no decision printed, nothing replied, and OpenCode's own prompt decides.
 */
export function openCodePlugin(command: string): string {
  return `${HEAD}
// Written by "Connect OpenCode"; "Disconnect OpenCode" removes it (an edited file is left alone).
// Each permission OpenCode asks goes to the hook command below with the request on stdin; the
// person's answer comes back as OpenCode's own reply (once, or reject with their note). No answer
// in ${PERMISSION_TIMEOUT_S - WAIT_MARGIN_S} s: nothing is replied, the card is withdrawn and OpenCode's prompt decides.
import { spawn } from "node:child_process";

const COMMAND = ${JSON.stringify(command)};
const WAIT_S = ${PERMISSION_TIMEOUT_S - WAIT_MARGIN_S};

export const AssistantCards = async ({ client, directory }) => {
  const waiting = new Map();
  const asked = new Set();
  const run = (event, wait) => new Promise((resolve) => {
    let out = "";
    let child;
    try {
      child = spawn(wait ? COMMAND + " --wait " + WAIT_S : COMMAND, { shell: true, detached: process.platform !== "win32", stdio: ["pipe", "pipe", "ignore"], windowsHide: true });
    } catch { resolve(""); return; }
    if (event.request_id) waiting.set(event.request_id, child);
    child.stdout.on("data", (d) => { out += d; });
    child.on("error", () => resolve(""));
    child.on("close", () => { waiting.delete(event.request_id); resolve(out); });
    child.stdin.on("error", () => undefined);
    child.stdin.end(JSON.stringify({ ...event, cwd: directory, pid: process.pid }));
  });
  // Answered in OpenCode's own prompt: the waiting hook stops and withdraws its card.
  const stop = (child) => { try { if (process.platform === "win32") child.kill(); else process.kill(-child.pid, "SIGTERM"); } catch {} };
  const reply = (id, answer) => (client._client ?? client.client).post({
    url: "/permission/" + encodeURIComponent(id) + "/reply", body: answer, headers: { "Content-Type": "application/json" },
  });
  const asks = async (p) => {
    asked.add(p.sessionID);
    const out = await run({ event: "permission.asked", session_id: p.sessionID, request_id: p.id, permission: p.permission, patterns: p.patterns, metadata: p.metadata }, true);
    let answer;
    try { answer = JSON.parse(out.trim() || "null"); } catch { return; }
    if (answer && (answer.reply === "once" || answer.reply === "reject")) await reply(p.id, answer);
  };
  return {
    event: async ({ event }) => {
      const p = event.properties ?? {};
      try {
        if (event.type === "permission.asked") await asks(p);
        else if (event.type === "permission.replied") { const child = waiting.get(p.requestID); if (child) stop(child); }
        else if (event.type === "session.deleted") {
          const id = p.sessionID ?? p.info?.id;
          if (asked.delete(id)) await run({ event: "session.deleted", session_id: id }, false);
        }
      } catch {}
    },
    dispose: async () => {
      for (const child of waiting.values()) stop(child);
      await Promise.all([...asked].map((id) => run({ event: "instance.disposed", session_id: id }, false)));
      asked.clear();
    },
  };
};
`;
}

/** The command a plugin file carries when the file is ours exactly as `openCodePlugin` writes it. */
export function openCodePluginCommand(text: string): string | undefined {
  const m = /^const COMMAND = (".*");$/m.exec(text);
  if (!m) return undefined;
  let command: unknown;
  try { command = JSON.parse(m[1]!); } catch { return undefined; }
  return typeof command === 'string' && text === openCodePlugin(command) ? command : undefined;
}

/** The folder OpenCode reads its user config from: $XDG_CONFIG_HOME/opencode, else ~/.config/opencode. */
export function openCodeConfigDir(env: NodeJS.ProcessEnv, home: string): string {
  return path.join(env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(home, '.config'), 'opencode');
}

export const openCode: CliAdapter = {
  id: 'opencode',
  name: 'OpenCode',
  commandKey: 'OpenCode',
  settingsFile: (env, home) => path.join(openCodeConfigDir(env, home), 'plugins', 'assistant-cards.js'),
  events: ['permission.asked', 'permission.replied', 'session.deleted'],
  permissionEvent: 'permission.asked',
  permissionTimeoutS: PERMISSION_TIMEOUT_S,
  pluginFile: { text: openCodePlugin, commandOf: openCodePluginCommand },
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
