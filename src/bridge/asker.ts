// One way to ask, for every assistant on this computer (the hook bridge, `ask`, the demo): register
// the live session, ask a card, wait for what it hears, pick it up or withdraw it. It speaks only
// the local service's asking surface (/_ask/), never the person's API, and it never answers.
import { ASK_TIMEOUT_MS, ServiceLink, type ServiceInfo } from './service-link';
import type { TerminalFacts } from './terminal';

export interface SessionInfo {
  app: string;
  sessionId: string;
  cwd: string;
  terminal?: TerminalFacts;
  /** The assistant's name in the Assistants view (default: the app's). */
  name?: string;
  /** The agent's name under it (default `main`). */
  agent?: string;
  machineId?: string;
}

export interface CardAsk {
  kind: string;
  title: string;
  summary?: string;
  options?: { id: string; label: string }[];
  recommendedIds?: string[];
  urgency?: string;
  blocking?: boolean;
  multi?: boolean;
  asks?: { id: string; title: string; options?: { id: string; label: string }[] }[];
  steps?: { title: string; state?: string; detail?: string }[];
  /** What it is asked for (`permission`, `waiting`, `question`): settle() closes cards by it. */
  reason?: string;
  /** The session's open cards asked for these reasons close as this one is asked (one request, not two). */
  settles?: string[];
}

export interface Heard { at: string; type: 'answer' | 'message' | 'helper-answer'; body: Record<string, unknown> }
export interface CardState { id: string; version: number; status: string; turn: string; closedBy?: string }

/** What became of a card the asker waited on. */
export type WaitResult =
  | { kind: 'heard'; heard: Heard[] }
  | { kind: 'closed'; card: CardState }
  | { kind: 'timeout' };

/** The longest single wait the service holds (its MAX_WAIT_MS). */
const LONG_POLL_MS = 25_000;

export class Asker {
  readonly link: ServiceLink;
  constructor(info: ServiceInfo) { this.link = new ServiceLink(info); }

  register(s: SessionInfo, signal?: AbortSignal): Promise<{ assistantId: string; agentId: string; appSessionId: string; new: boolean }> {
    return this.link.call('POST', '/_ask/sessions', {
      app: s.app, sessionId: s.sessionId, cwd: s.cwd,
      ...(s.terminal ? { terminal: s.terminal } : {}), ...(s.name ? { name: s.name } : {}),
      ...(s.agent ? { agent: s.agent } : {}), ...(s.machineId ? { machineId: s.machineId } : {}),
    }, { ...(signal ? { signal } : {}) });
  }

  end(sessionId: string): Promise<{ withdrawn: string[] }> {
    return this.link.call('DELETE', `/_ask/sessions/${encodeURIComponent(sessionId)}`);
  }

  /** The person went on in the terminal: the session's open cards asked for `reasons` close. */
  settle(sessionId: string, reasons?: string[]): Promise<{ withdrawn: string[] }> {
    return this.link.call('POST', `/_ask/sessions/${encodeURIComponent(sessionId)}/settle`, reasons ? { reasons } : {});
  }

  ask(sessionId: string, card: CardAsk): Promise<CardState> {
    return this.link.call('POST', '/_ask/cards', { sessionId, ...card }, { timeoutMs: ASK_TIMEOUT_MS });
  }

  /**
   * Waits until the card hears something, closes, or `deadline` (ms since the epoch) passes, in
   * long polls of at most 25 s: the answer reaches the assistant as soon as its hold ends.
   */
  async wait(cardId: string, deadline: number, signal?: AbortSignal, seen = 0): Promise<WaitResult> {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted) return { kind: 'timeout' };
      const wait = Math.min(left, LONG_POLL_MS);
      const r = await this.link.call<CardState & { heard: Heard[] }>('GET',
        `/_ask/cards/${encodeURIComponent(cardId)}/heard?seen=${seen}&wait=${Math.floor(wait)}`, undefined,
        { timeoutMs: wait + 5_000, ...(signal ? { signal } : {}) });
      if (r.heard.length > 0) return { kind: 'heard', heard: r.heard };
      if (r.status === 'done') return { kind: 'closed', card: r };
    }
  }

  pickup(cardId: string): Promise<CardState> {
    return this.link.call('POST', `/_ask/cards/${encodeURIComponent(cardId)}/pickup`);
  }

  withdraw(cardId: string): Promise<CardState> {
    return this.link.call('POST', `/_ask/cards/${encodeURIComponent(cardId)}/withdraw`);
  }
}
