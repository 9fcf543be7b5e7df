// The plugin Connect OpenCode writes (./opencode.ts says why a plugin): its whole text for a hook
// command, and the command of a text that is ours exactly as written. Only Connect loads this file
// (src/bridge/connect-settings.ts); the hook never needs the plugin's text.
import { WAIT_MARGIN_S } from './adapter';
import { PERMISSION_TIMEOUT_S } from './opencode';

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
