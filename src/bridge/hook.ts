// `bridge.js hook <app>`: what the connected CLIs run as their hooks. One JSON event on stdin, read
// by the app's adapter (src/bridge/clis/) into one neutral event; this file sees only that.
// stdout is the CLI's to read, so it carries a decision or nothing. It never answers by itself:
// no service, a refusal, the wait running out or the person closing the card all end in silence
// (the CLI's own prompt decides) and the card withdrawn. The exit status is always 0: a failing
// hook would be shown to the person as an error of the CLI's.
import * as path from 'node:path';
import { Asker, type CardAsk } from './asker';
import { adapterOf } from './clis/index';
import { parseClaudeShaped, printClaudeShaped, type CliAdapter, type NeutralEvent } from './clis/adapter';
import { APP_NAMES, decisionOf, permissionCard } from './permission-card';
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

/** An app no adapter knows (`hook other`): read as Claude Code's shape, the one most CLIs follow. */
const UNKNOWN: Pick<CliAdapter, 'parse' | 'print'> = { parse: parseClaudeShaped, print: printClaudeShaped };

/** What the person typed in the terminal answers: every open card of the session closes. */
const EVERY_REASON = undefined;

function waitingCard(app: string, e: NeutralEvent): CardAsk {
  const who = APP_NAMES[app] ?? app;
  const message = e.message?.trim() ? e.message : `${who} is waiting for your input`;
  return {
    kind: 'update', title: `${who} waits for you in its terminal`, summary: message, blocking: false, urgency: 'now', reason: 'waiting',
  };
}

/** Runs one hook event; resolves to what the hook prints (empty: nothing). */
export async function runHook(o: HookOptions): Promise<string> {
  const log = o.log ?? (() => undefined);
  const cli = adapterOf(o.app) ?? UNKNOWN;
  let e: NeutralEvent;
  try {
    const parsed: unknown = JSON.parse(o.input);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    e = cli.parse(parsed as Record<string, unknown>);
  } catch (err) {
    log(`hook: the event on stdin is not JSON (${(err as Error).message}); nothing done`);
    return '';
  }
  if (!o.service) { log('hook: no local service announced (local-service.json); nothing done'); return ''; }
  const event = e.name;
  const sessionId = e.sessionId;
  if (!sessionId) { log(`hook: ${event} carries no session_id; nothing done`); return ''; }
  const cwd = e.cwd ?? process.cwd();
  const asker = new Asker(o.service);
  const register = () => asker.register({
    app: adapterOf(o.app)?.serviceApp ?? o.app, sessionId, cwd, terminal: o.terminal(), name: APP_NAMES[o.app] ?? o.app,
    agent: path.basename(cwd) || cwd,
  }, o.signal);

  try {
    switch (e.kind) {
      case 'end':
        await asker.end(sessionId);
        return '';
      case 'prompt':
        await register();
        await asker.settle(sessionId, EVERY_REASON);
        return '';
      case 'went-on':
        // The CLI went on: a permission it asked was answered in the terminal.
        await register();
        await asker.settle(sessionId, ['permission', 'question']);
        return '';
      case 'waiting':
        await register();
        // One that only repeats a permission request: its own card already shows it.
        if (e.aboutPermission) return '';
        await asker.ask(sessionId, { ...waitingCard(o.app, e), settles: ['waiting'] });
        return '';
      case 'permission':
        await register();
        return await permission(asker, sessionId, o, e, cli.print);
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

async function permission(asker: Asker, sessionId: string, o: HookOptions, e: NeutralEvent, print: CliAdapter['print']): Promise<string> {
  // Claude Code's question tool asks through the same request: its questions become the card.
  const questions = e.tool === 'AskUserQuestion' ? questionsOf(e.input) : undefined;
  const input = (e.input && typeof e.input === 'object' ? e.input : {}) as Record<string, unknown>;
  // Asking again means it is no longer waiting for input: that card closes as this one is asked.
  const card = await asker.ask(sessionId, {
    ...(questions ? questionCard(o.app, questions) : permissionCard(o.app, { tool_name: e.tool, tool_input: e.input, cwd: e.cwd })),
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
    return print(decision);
  } catch (err) {
    if (!o.signal?.aborted) throw err;
    return '';
  } finally {
    // Not answered here: the CLI's own prompt takes over, so the card must not stay open.
    if (!answered) await asker.withdraw(card.id).catch(() => undefined);
  }
}
