// `bridge.js hook <app>`: what the connected CLIs run as their hooks. One JSON event on stdin, read
// by the app's adapter (src/bridge/clis/) into one neutral event; this file sees only that.
// stdout is the CLI's to read, so it carries a decision or nothing. It never answers by itself:
// no service, a refusal, the wait running out or the person closing the card all end in silence
// (the CLI's own prompt decides) and the card withdrawn. The exit status is always 0: a failing
// hook would be shown to the person as an error of the CLI's.
import * as os from 'node:os';
import * as path from 'node:path';
import type { Registered } from '../api/ask-schemas';
import { Asker, type AskedCard } from './asker';
import { adapterOf } from './clis/index';
import { parseClaudeShaped, printClaudeShaped, type AlwaysAllow, type CliAdapter, type NeutralEvent } from './clis/adapter';
import { APP_NAMES, decisionOf, permissionCard } from './permission-card';
import { questionCard, questionDecision, questionsOf } from './question-card';
import { bridgeHome } from './home';
import { processGone } from './process-alive';
import { ServiceError, type ServiceInfo } from './service-link';
import { keysInFolder, SESSIONS_DIR } from './session-keys';
import type { ServerUi, TerminalFacts } from './terminal';
import { claimedUi, claimedUis, claimFile, forgetUi, watchUi, type UiSession } from './ui-watch';
import { say } from './words';

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
  /** Where the sessions' own keys are kept between events (default: the bridge home's sessions/). */
  keysDir?: string;
  /** The environment the CLI ran the hook in (default: this process's): where its settings files are. */
  env?: NodeJS.ProcessEnv;
  /** The folder the CLI ran the hook in (default: this process's), for an event that names none. */
  cwd?: string;
  /**
   * Where the CLI runs its hooks in a shared server rather than in the terminal's own process
   * (plain `codex`): the terminal of the UI this session runs in (terminal.ts `sharedServerUi`).
   * Undefined, or it answers undefined: the hook's parent is the CLI, and `terminal` says where.
   */
  sharedServerUi?: (at: { cwd: string; claimed: () => ReadonlySet<number>; mine: () => number | undefined }) => ServerUi | undefined;
  /** The bridge's own hook command line: what a UI's watcher runs with the session's end (ui-watch.ts). */
  hookArgv?: readonly string[];
}

/** An app no adapter knows (`hook other`): read as Claude Code's shape, the one most CLIs follow. */
const UNKNOWN: Pick<CliAdapter, 'parse' | 'print'> = { parse: parseClaudeShaped, print: printClaudeShaped };

/** How often a waiting hook looks whether the CLI that asked still runs. */
const OWNER_POLL_MS = 1000;

/** What the person typed in the terminal answers: every open card of the session closes. */
const EVERY_REASON = undefined;

function waitingCard(app: string, e: NeutralEvent): AskedCard {
  const who = APP_NAMES[app] ?? app;
  const message = e.message?.trim() ? e.message : say('waitsSummary', who);
  return {
    kind: 'update', title: say('waitsTitle', who), summary: message, blocking: false, urgency: 'now', reason: 'waiting',
  };
}

/** Runs one hook event; resolves to what the hook prints (empty: nothing). */
export async function runHook(o: HookOptions): Promise<string> {
  const log = o.log ?? (() => undefined);
  const known = adapterOf(o.app);
  const cli = known ?? UNKNOWN;
  let e: NeutralEvent;
  let raw: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(o.input);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    raw = parsed as Record<string, unknown>;
    e = cli.parse(raw);
  } catch (err) {
    log(`hook: the event on stdin is not JSON (${(err as Error).message}); nothing done`);
    return '';
  }
  if (!o.service) { log('hook: no local service announced (local-service.json); nothing done'); return ''; }
  const event = e.name;
  const sessionId = e.sessionId;
  if (!sessionId) { log(`hook: ${event} carries no session_id; nothing done`); return ''; }
  const cwd = e.cwd ?? o.cwd ?? process.cwd();
  const keysDir = o.keysDir ?? path.join(bridgeHome(), SESSIONS_DIR);
  const asker = new Asker(o.service, keysInFolder(keysDir, o.service.askKey, o.app));
  const uiSession: UiSession = { dir: keysDir, askKey: o.service.askKey, app: o.app, appSessionId: sessionId };
  let ui: ServerUi | undefined;
  try {
    ui = e.kind === 'end' || !known?.hooksInSharedServer ? undefined : o.sharedServerUi?.({ cwd, claimed: () => claimedUis(keysDir, claimFile(uiSession)), mine: () => claimedUi(uiSession) });
    // The session ends when its UI does, not a minute later when the server unloads it.
    if (ui?.pid !== undefined && o.hookArgv) watchUi(uiSession, ui.pid, JSON.stringify({ hook_event_name: 'SessionEnd', session_id: sessionId, cwd, reason: 'ui-exited' }), o.hookArgv);
  } catch (err) {
    log(`hook: the session's terminal UI: ${(err as Error).message}`);
  }
  // Registering again refreshes the session; it goes with the card when there is one (one call).
  const register = (card?: AskedCard) => asker.register({
    app: known?.serviceApp ?? o.app, appSessionId: sessionId, cwd, terminal: ui?.terminal ?? o.terminal(), name: APP_NAMES[o.app] ?? o.app,
    agent: path.basename(cwd) || cwd,
  }, card, o.signal);
  /** The CLI went on: the session's open cards of `reasons` close. A session not known here registers (it has none open). */
  const withdrawFor = async (reasons: string[] | undefined) => {
    if (!asker.knows(sessionId)) { await register(); return; }
    try {
      await asker.withdrawFor(sessionId, reasons);
    } catch (err) {
      // A restarted service no longer knows the session (nor its cards): it registers anew.
      if (!(err instanceof ServiceError && (err.status === 401 || err.status === 403))) throw err;
      await register();
    }
  };

  try {
    switch (e.kind) {
      case 'end':
        forgetUi(uiSession);
        if (asker.knows(sessionId)) await asker.end(sessionId);
        return '';
      case 'prompt':
        await withdrawFor(EVERY_REASON);
        return '';
      case 'went-on':
        // The CLI went on: a permission it asked was answered in the terminal.
        await withdrawFor(['permission', 'question']);
        return '';
      case 'waiting':
        // One that only repeats a permission request: its own card already shows it.
        if (e.aboutPermission) { if (!asker.knows(sessionId)) await register(); return ''; }
        await register({ ...waitingCard(o.app, e), settles: ['waiting'] });
        return '';
      case 'permission': {
        // The CLI's own "don't ask again", where its adapter says it has one a hook can take.
        const env = o.env ?? process.env;
        const always = known?.alwaysAllow?.(raw, env, o.env?.HOME || os.homedir()) ?? [];
        return await permission(asker, register, sessionId, o, e, cli.print, always);
      }
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

/**
 * A permission costs two calls: the registration with the card, then the wait, which picks up
 * what the card heard in the same call (a wait longer than 25 s is one more call each 25 s).
 */
async function permission(
  asker: Asker, register: (card: AskedCard) => Promise<Registered>, sessionId: string, o: HookOptions, e: NeutralEvent, print: CliAdapter['print'], always: readonly AlwaysAllow[],
): Promise<string> {
  // Claude Code's question tool asks through the same request: its questions become the card.
  const questions = e.tool === 'AskUserQuestion' ? questionsOf(e.input) : undefined;
  const input = (e.input && typeof e.input === 'object' ? e.input : {}) as Record<string, unknown>;
  // Asking again means it is no longer waiting for input: that card closes as this one is asked.
  const card = (await register({
    ...(questions ? questionCard(o.app, questions) : permissionCard(o.app, { tool_name: e.tool, tool_input: e.input, cwd: e.cwd }, always)),
    settles: ['waiting'],
  })).card!;
  let heard = false;
  // Waiting stops on the hook's own signal, or when the CLI that asked stops (where it names its process).
  const stop = new AbortController();
  const abort = () => stop.abort();
  if (o.signal?.aborted) abort(); else o.signal?.addEventListener('abort', abort, { once: true });
  let ownerGone = false;
  const owner = e.ownerPid;
  const watch = owner === undefined ? undefined : setInterval(() => { if (processGone(owner)) { ownerGone = true; abort(); } }, OWNER_POLL_MS);
  try {
    const r = await asker.wait(sessionId, card.id, Date.now() + o.waitMs, { pickup: true, signal: stop.signal });
    if (r.kind !== 'heard') return '';
    // Heard is picked up (the card is done, the person sees the assistant took it), even "you
    // decide": the CLI's own prompt takes it from there.
    heard = true;
    const decision = questions ? questionDecision(questions, input, r.heard) : decisionOf(r.heard, always);
    return decision ? print(decision) : '';
  } catch (err) {
    if (!stop.signal.aborted) throw err;
    return '';
  } finally {
    clearInterval(watch);
    o.signal?.removeEventListener('abort', abort);
    // Not answered here: the CLI's own prompt takes over, so the card must not stay open.
    if (!heard) await asker.withdraw(sessionId, card.id).catch(() => undefined);
    // The CLI stopped: so did its session.
    if (ownerGone) await asker.end(sessionId).catch(() => undefined);
  }
}
