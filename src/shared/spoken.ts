// What a screen reader says for each tree item and the status bar (accessibilityInformation.label):
// one plain sentence that names what the item is, whose it is, where it stands and when, without
// the icons and separators the eye reads. Pure, so it is tested without an editor.
import { t } from './l10n';
import { agentStateWords, urgencyWords } from './card-view';
import type { Agent, Assistant, CardListEntry, LiveSession } from '../api/schemas';
import type { ConnectionState, Counts } from '../sync/contract';
import { ago, seen, until } from './format';
import { plainText } from './plain-text';

type Whole = Extract<CardListEntry, { summary?: string }>;
const field = <K extends keyof Whole>(c: CardListEntry, k: K): Whole[K] | undefined => (c as Whole)[k];

const sentence = (parts: readonly (string | undefined)[]): string => parts.filter((p): p is string => !!p).join(', ');

const cardCount = (n: number): string => (n === 1 ? t('1 card') : t('{0} cards', n));
const openCount = (n: number): string => (n === 1 ? t('1 open card') : t('{0} open cards', n));

/** Where a card stands, in the words the tree's groups use. */
function cardState(c: CardListEntry, nowMs: number, timeZone?: string): string {
  switch (c.status) {
    case 'pending': return c.turn === 'you' ? t('waiting on you') : t('waiting on the assistant');
    case 'snoozed': {
      const back = until(field(c, 'until'), nowMs, timeZone);
      return back ? t('later, back {0}', back) : t('later');
    }
    case 'delegated': return t('with a helper');
    case 'done': return t('done');
    case 'answered': {
      const undoUntil = field(c, 'undoUntil');
      return undoUntil && Date.parse(undoUntil) > nowMs ? t('answered, undo still possible') : t('answered');
    }
    default: return plainText(c.status, 20);
  }
}

/** What a card's spoken sentence says that its version fixes (`spokenWords`); the state and the clock's words are added at each build. */
export interface SpokenWords {
  /** "Card: <title>" or "Notice: <title>". */
  head: string;
  /** "asked by <assistant>" or a notice's "from <webhook, sender>". */
  who: string | undefined;
  /** Urgency, blocking, high stakes. */
  marks: string[];
}

export function spokenWords(c: CardListEntry): SpokenWords {
  const title = plainText(c.title, 200) || t('(no title)');
  const marks = [
    c.urgency ? t('urgency {0}', plainText(urgencyWords(c.urgency), 20)) : undefined,
    c.blocking ? t('blocking') : undefined,
    c.highStakes ? t('high stakes, answered only in the browser') : undefined,
  ].filter((m): m is string => !!m);
  if (c.kind === 'update') {
    const from = [field(c, 'webhook')?.name, field(c, 'from')].map((s) => plainText(s, 60)).filter(Boolean).join(', ');
    return { head: t('Notice: {0}', title), who: from ? t('from {0}', from) : undefined, marks };
  }
  const assistant = field(c, 'assistant');
  const agent = field(c, 'agent');
  const asker = assistant ? plainText(agent ? t('{0}, agent {1}', assistant.name, agent.name) : assistant.name, 120) : '';
  return { head: t('Card: {0}', title), who: asker ? t('asked by {0}', asker) : undefined, marks };
}

/** "Card: <title>, asked by <assistant>, waiting on you, 2 minutes ago" (a notice: "Notice: ..."); `words` are its version's. */
export function spokenCard(c: CardListEntry, nowMs: number, timeZone?: string, words: SpokenWords = spokenWords(c)): string {
  const when = c.kind === 'update'
    ? seen(field(c, 'count'), field(c, 'lastAt') ?? field(c, 'createdAt'), nowMs)
    : ago(field(c, 'changedAt') ?? field(c, 'createdAt'), nowMs);
  return sentence([words.head, words.who, cardState(c, nowMs, timeZone), when, ...words.marks]);
}

/** A card the tree still shows but the model no longer holds (drawn as "(gone)"). */
export function spokenGoneCard(): string {
  return t('Card no longer listed');
}

/** A group row: its name and how many cards it shows (Done: not read until expanded). */
export function spokenGroup(name: string, count: number | undefined): string {
  return count === undefined ? t('Group {0}, opens to load its cards', name) : t('Group {0}, {1}', name, cardCount(count));
}

/** An assistant row: name, app and computer, live or not, open cards, and its terminal here. */
export function spokenAssistant(a: Assistant, terminalName: string | undefined): string {
  const live = a.agents.some((g) => g.state === 'live' || g.liveSessions.length > 0);
  const open = a.agents.reduce((n, g) => n + g.openCards, 0);
  return sentence([
    t('Assistant: {0}', plainText(a.name, 80) || t('(no name)')),
    t('{0} on {1}', plainText(a.appName || a.app, 60), plainText(a.machine.name, 60)),
    live ? t('live') : t('not live'),
    openCount(open),
    terminalName ? t('runs in terminal {0} of this window', plainText(terminalName, 80)) : t('not in a terminal of this window'),
  ]);
}

/** An agent row: name, state (and when it was last live), open cards. */
export function spokenAgent(g: Agent, nowMs: number): string {
  const state = plainText(agentStateWords(g.state), 20);
  const lastLive = g.state !== 'live' && g.liveAt ? t('last live {0}', ago(g.liveAt, nowMs)) : undefined;
  return sentence([t('Agent: {0}', plainText(g.name, 80) || t('(no name)')), state, lastLive, openCount(g.openCards)]);
}

/** A live session row: its folder, the terminal of this window it runs in (or none), when live. */
export function spokenSession(s: LiveSession, terminalName: string | undefined, nowMs: number): string {
  return sentence([
    t('Session in folder {0}', plainText(s.cwd, 200) || t('(no folder)')),
    terminalName ? t('in terminal {0}', plainText(terminalName, 80)) : t('not in this window'),
    t('live {0}', ago(s.liveAt, nowMs)),
  ]);
}

/** An assistant, agent or session the view still shows but the service no longer lists. */
export function spokenGoneAssistantItem(kind: 'assistant' | 'agent' | 'session'): string {
  return kind === 'assistant' ? t('Assistant no longer listed') : kind === 'agent' ? t('Agent no longer listed') : t('Session ended');
}

/** The status bar item in every connection state. */
export function spokenStatus(state: ConnectionState, counts: Counts): string {
  const waiting = counts.waiting === 0 ? t('no cards wait on you')
    : counts.waiting === 1 ? t('1 card waits on you') : t('{0} cards wait on you', counts.waiting);
  const blocking = counts.blockingWaiting > 0 ? t('{0} blocking', counts.blockingWaiting) : undefined;
  switch (state.kind) {
    case 'signed-out': return t('Assistant Cards: signed out. Activate to sign in.');
    case 'not-set-up': return t('Assistant Cards: this computer is not set up.');
    case 'signing-in': return t('Assistant Cards: signing in, code {0}. Allow it on the approval page.', plainText(state.userCode, 20));
    case 'offline': return sentence([t('Assistant Cards: offline'), t('as last read, {0}', waiting), blocking]);
    case 'online': return sentence([t('Assistant Cards: {0}', waiting), blocking]);
  }
}
