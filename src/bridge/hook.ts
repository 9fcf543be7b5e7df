// `bridge.js hook <app>`: what Claude Code and Codex run as their hooks. One JSON event on stdin;
// stdout is the CLI's to read, so it carries a decision or nothing. It never answers by itself:
// no service, a refusal, the wait running out or the person closing the card all end in silence
// (the CLI's own prompt decides) and the card withdrawn. The exit status is always 0: a failing
// hook would be shown to the person as an error of the CLI's.
import * as path from 'node:path';
import { Asker, type CardAsk } from './asker';
import { APP_NAMES, decisionOf, decisionOutput, permissionCard } from './permission-card';
import { questionCard, questionDecision, questionsOf } from './question-card';
import type { ServiceInfo } from './service-link';
import type { TerminalFacts } from './terminal';

export interface HookOptions {
  app: string;
  /** The event as the CLI wrote it on stdin. */
  input: string;
  service: ServiceInfo | undefined;
  terminal: () => TerminalFacts;
  /** How long a permission card may wait for the person (stay under the hook's timeout). */
  waitMs: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

interface HookEvent {
  hook_event_name?: unknown;
  session_id?: unknown;
  cwd?: unknown;
  message?: unknown;
  notification_type?: unknown;
  tool_name?: unknown;
  tool_input?: unknown;
}

/** What the person typed in the terminal answers: every open card of the session closes. */
const EVERY_REASON = undefined;

/** A Notification that only repeats a permission request (its own card already shows it). */
function aboutPermission(e: HookEvent): boolean {
  return e.notification_type === 'permission_prompt' || (typeof e.message === 'string' && /\bpermission\b/i.test(e.message));
}

function waitingCard(app: string, e: HookEvent): CardAsk {
  const who = APP_NAMES[app] ?? app;
  const message = typeof e.message === 'string' && e.message.trim() ? e.message : `${who} is waiting for your input`;
  return {
    kind: 'update', title: `${who} waits for you in its terminal`, summary: message, blocking: false, urgency: 'now', reason: 'waiting',
  };
}

/** Runs one hook event; resolves to what the hook prints (empty: nothing). */
export async function runHook(o: HookOptions): Promise<string> {
  const log = o.log ?? (() => undefined);
  let e: HookEvent;
  try {
    const parsed: unknown = JSON.parse(o.input);
    if (!parsed || typeof parsed !== 'object') throw new Error('not an object');
    e = parsed as HookEvent;
  } catch (err) {
    log(`hook: the event on stdin is not JSON (${(err as Error).message}); nothing done`);
    return '';
  }
  if (!o.service) { log('hook: no local service announced (local-service.json); nothing done'); return ''; }
  const event = typeof e.hook_event_name === 'string' ? e.hook_event_name : '';
  const sessionId = typeof e.session_id === 'string' && e.session_id ? e.session_id : undefined;
  if (!sessionId) { log(`hook: ${event} carries no session_id; nothing done`); return ''; }
  const cwd = typeof e.cwd === 'string' ? e.cwd : process.cwd();
  const asker = new Asker(o.service);
  const register = () => asker.register({
    app: o.app, sessionId, cwd, terminal: o.terminal(), name: APP_NAMES[o.app] ?? o.app,
    agent: path.basename(cwd) || cwd,
  }, o.signal);

  try {
    switch (event) {
      case 'SessionEnd':
        await asker.end(sessionId);
        return '';
      case 'UserPromptSubmit':
        await register();
        await asker.settle(sessionId, EVERY_REASON);
        return '';
      case 'PostToolUse':
      case 'Stop':
        // The CLI went on: a permission it asked was answered in the terminal.
        await register();
        await asker.settle(sessionId, ['permission', 'question']);
        return '';
      case 'Notification':
        await register();
        if (aboutPermission(e)) return '';
        await asker.ask(sessionId, { ...waitingCard(o.app, e), settles: ['waiting'] });
        return '';
      case 'PermissionRequest':
        await register();
        return await permission(asker, sessionId, o, e);
      default:
        // SessionStart and anything else: the session is live.
        await register();
        return '';
    }
  } catch (err) {
    log(`hook: ${event}: ${(err as Error).message}`);
    return '';
  }
}

async function permission(asker: Asker, sessionId: string, o: HookOptions, e: HookEvent): Promise<string> {
  // Claude Code's question tool asks through the same request: its questions become the card.
  const questions = e.tool_name === 'AskUserQuestion' ? questionsOf(e.tool_input) : undefined;
  const input = (e.tool_input && typeof e.tool_input === 'object' ? e.tool_input : {}) as Record<string, unknown>;
  // Asking again means it is no longer waiting for input: that card closes as this one is asked.
  const card = await asker.ask(sessionId, {
    ...(questions ? questionCard(o.app, questions) : permissionCard(o.app, { tool_name: e.tool_name, tool_input: e.tool_input, cwd: e.cwd })),
    settles: ['waiting'],
  });
  let answered = false;
  try {
    const r = await asker.wait(card.id, Date.now() + o.waitMs, o.signal);
    if (r.kind !== 'heard') return '';
    const decision = questions ? questionDecision(questions, input, r.heard) : decisionOf(r.heard);
    if (!decision) return '';
    answered = true;
    // Picked up: the card is done and the person sees the assistant took the answer.
    await asker.pickup(card.id).catch(() => undefined);
    return decisionOutput(decision);
  } catch (err) {
    if (!o.signal?.aborted) throw err;
    return '';
  } finally {
    // Not answered here: the CLI's own prompt takes over, so the card must not stay open.
    if (!answered) await asker.withdraw(card.id).catch(() => undefined);
  }
}
