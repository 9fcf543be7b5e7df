// `bridge.js ask <kind> <title> [...]`: any other assistant or script asks the person and waits.
// The answer is printed as one JSON line; the exit status says what happened (ASK_EXIT). Like the
// hook, it never answers by itself: no answer in time withdraws the card.
import { Asker, type AskedCard } from './asker';
import { nodeCrypto } from './node-crypto';
import type { ServiceInfo } from './service-link';
import { detectTty } from './terminal';

/**
 * The documented exit statuses of `ask` (README "ask"). 0 is an answer that is what was asked: for
 * an approval, only "approved" (`ask approval … && deploy` must never deploy on anything else,
 * #52 F6). Words the person wrote instead of deciding have their own status, 5.
 */
export const ASK_EXIT = { answered: 0, declined: 1, usage: 2, unanswered: 3, noService: 4, words: 5 } as const;

export const ASK_USAGE = `usage: assistant-cards-hook ask <approval|choice|text> <title> [--summary TEXT] [--option ID=LABEL ...]
                         [--wait SECONDS (default 600)] [--app APP (default other)] [--name NAME]
exit status: 0 answered (an approval: approved, nothing else), 1 an approval declined, 2 bad usage,
             3 no answer (the wait ran out, the card was closed, or the person handed the choice back),
             4 no local service, 5 the person wrote words instead of answering (printed as "body")`;

export interface AskArgs { card: AskedCard; waitMs: number; app: string; name: string }

export function parseAskArgs(argv: string[]): AskArgs {
  const [kind, title, ...rest] = argv;
  if (!kind || !['approval', 'choice', 'text'].includes(kind)) throw new Error(`the kind must be approval, choice or text\n${ASK_USAGE}`);
  if (!title) throw new Error(`a title is needed\n${ASK_USAGE}`);
  const card: AskedCard = { kind, title, blocking: true, urgency: 'now', reason: 'ask' };
  let waitMs = 600_000;
  let app = 'other';
  let name = 'ask';
  for (let i = 0; i < rest.length; i += 2) {
    const flag = rest[i]!;
    const v = rest[i + 1];
    if (v === undefined) throw new Error(`${flag} needs a value\n${ASK_USAGE}`);
    if (flag === '--summary') card.summary = v;
    else if (flag === '--option') {
      const eq = v.indexOf('=');
      if (eq <= 0) throw new Error(`--option takes ID=LABEL, got "${v}"`);
      (card.options ??= []).push({ id: v.slice(0, eq), label: v.slice(eq + 1) });
    } else if (flag === '--wait') {
      const s = Number(v);
      if (!Number.isFinite(s) || s <= 0) throw new Error(`--wait takes seconds above 0, got "${v}"`);
      waitMs = s * 1000;
    } else if (flag === '--app') app = v;
    else if (flag === '--name') name = v;
    else throw new Error(`unknown option ${flag}\n${ASK_USAGE}`);
  }
  if (kind === 'choice' && !card.options?.length) throw new Error('a choice needs --option ID=LABEL at least once');
  return { card, waitMs, app, name };
}

/** The exit status of an answer heard: an approval exits 0 only when approved. */
export function exitOf(kind: string, words: boolean, body: Record<string, unknown>): number {
  if (words) return ASK_EXIT.words;
  if (kind === 'approval') return body.approved === true ? ASK_EXIT.answered : body.approved === false ? ASK_EXIT.declined : ASK_EXIT.unanswered;
  return ASK_EXIT.answered;
}

export interface AskRun { args: AskArgs; service: ServiceInfo | undefined; out: (line: string) => void; err: (line: string) => void; signal?: AbortSignal }

export async function runAsk(o: AskRun): Promise<number> {
  if (!o.service) { o.err('ask: no local service is running (no local-service.json); start it with `npm start` or the editor'); return ASK_EXIT.noService; }
  const asker = new Asker(o.service);
  // One session per call, in the terminal of the shell that ran it; it ends when the call does.
  const appSessionId = `ask-${process.ppid}-${nodeCrypto().randomBytes(3).toString('hex')}`;
  const tty = detectTty();
  let cardId: string | undefined;
  let answered = false;
  try {
    const registered = await asker.register({ app: o.args.app, appSessionId, cwd: process.cwd(), name: o.args.name, terminal: { pid: process.ppid, ...(tty ? { tty } : {}) } }, o.args.card);
    cardId = registered.card!.id;
    const r = await asker.wait(appSessionId, cardId, Date.now() + o.args.waitMs, { pickup: true, ...(o.signal ? { signal: o.signal } : {}) });
    if (r.kind !== 'heard') { o.out(JSON.stringify({ outcome: r.kind === 'closed' ? 'closed' : 'timeout', card: cardId })); return ASK_EXIT.unanswered; }
    answered = true;
    const h = r.heard[0]!;
    if (h.body.theyDecide === true) { o.out(JSON.stringify({ outcome: 'theyDecide', card: cardId })); return ASK_EXIT.unanswered; }
    const words = h.type === 'message';
    o.out(JSON.stringify({ outcome: words ? 'words' : 'answered', card: cardId, ...h.body }));
    return exitOf(o.args.card.kind, words, h.body);
  } catch (e) {
    o.err(`ask: ${(e as Error).message}`);
    return cardId === undefined ? ASK_EXIT.noService : ASK_EXIT.unanswered;
  } finally {
    if (cardId !== undefined && !answered) await asker.withdraw(appSessionId, cardId).catch(() => undefined);
    await asker.end(appSessionId).catch(() => undefined);
  }
}
