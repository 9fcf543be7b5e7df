// The rules of a card's notification, apart from `vscode`: when one comes (the setting, the card,
// a return to the person), which buttons it offers, and how it says who asks and where. Every
// string from the service is made plain here; the notifier only shows what these rules return.
import type { Card, CardListEntry, HistoryEntry } from '../api/schemas';
import type { AnswerPayload } from './protocol';
import { t } from './l10n';
import { approvalAnswers } from './approval';
import { plainText } from './plain-text';
import { waitsOnYou } from './card-facts';
import { readProposal } from './proposal';
import { holdsHidden } from './hidden-chars';
import { hidesCharacters, showsLookAlikes } from './hidden-words';
import { mixedScripts, skeleton } from './look-alike';
import { markLookAlikes } from './look-alike-words';
import { fitsOneLine, summaryOneLine } from './summary-blocks';
import { answeredText, BUTTON_MAX, shortLabel } from './answered-text';

// Kept here too, where the notifications' tests and callers find them.
export { answeredText, BUTTON_MAX, shortLabel };

/** `assistantCards.notify`: like VS Code's `chat.notifyWindowOnConfirmation`. */
export type NotifySetting = 'blocking' | 'all' | 'off';
export const NOTIFY_SETTINGS: readonly NotifySetting[] = ['blocking', 'all', 'off'];

/** The setting as written; anything unknown is the default, `blocking`. */
export function notifySetting(value: unknown): NotifySetting {
  return NOTIFY_SETTINGS.includes(value as NotifySetting) ? value as NotifySetting : 'blocking';
}

/** At most this many answers as buttons; more, and the card is opened to choose. */
export const MAX_ANSWER_BUTTONS = 3;
/**
 * What a notification shows whole: a title, a summary and a helper's proposal up to these
 * lengths. Longer, and the notification says less than the card: it offers Open only, so an
 * answer is never pressed over words the person was not shown.
 */
export const TITLE_MAX = 100;
/** A CLI's one-line command with its folder and the model's "why", as the bridge writes it, fits (#52 F4's labels made it ~250). */
export const SUMMARY_MAX = 400;
export const PROPOSAL_MAX = 120;

type Waiting = Pick<CardListEntry, 'status' | 'turn' | 'blocking'>;


/** Whether a card waiting on the person is worth a notification under the setting. */
export function wantsNotification(setting: NotifySetting, card: Waiting): boolean {
  if (setting === 'off' || !waitsOnYou(card)) return false;
  return setting === 'all' || card.blocking === true;
}

/**
 * A card that comes back to the person: back from Later, taken back, or returned by a `loop`
 * helper (both leave `delegated`). Not when the person made it so on this computer (their own
 * Back or Take back, in this window or another): they just did it. An Undo of their own answer
 * is not a return either.
 */
export function isReturn(
  previous: Pick<CardListEntry, 'status' | 'turn'>,
  card: Pick<CardListEntry, 'status' | 'turn'> & { history?: readonly HistoryEntry[] },
  thisComputer: string | undefined,
): boolean {
  if (!(previous.status === 'snoozed' || previous.status === 'delegated') || !waitsOnYou(card)) return false;
  return !byThePersonHere(card, thisComputer);
}

/** The card's last step was the person's own press on this computer (a whole card's history says so). */
export function byThePersonHere(card: { history?: readonly HistoryEntry[] }, thisComputer: string | undefined): boolean {
  const last = card.history?.[card.history.length - 1];
  return thisComputer !== undefined && last?.by === 'person' && last.machine?.id === thisComputer;
}

/** Hostile text in one inert line, whole when it fits `max`; undefined when it does not (it would be cut). */
export function wholeText(text: string | undefined, max: number): string | undefined {
  const whole = plainText(text, Number.MAX_SAFE_INTEGER);
  return whole.length <= max ? whole : undefined;
}

/** The notification's own buttons, in the words it shows them: an option that reads as one of them is never a button. */
export function ownButtonWords(): string[] {
  return [t('Open'), t('Show Terminal'), t('Undo'), t('Accept proposal'), ...approvalAnswers().map((a) => a.label), t('Open Next')];
}

/**
 * Whether a label could be taken for one of the notification's own buttons, judged by what the eye
 * sees: the label's confusable skeleton holds one of theirs (Cyrillic "Оpen", all-Cyrillic "Ореп",
 * small capitals "ᴏᴘᴇɴ", "Open" with a blank letter, "  OPEN ", "Ｏｐｅｎ", "Show-terminal", "Open
 * now", "Approved"), or there is doubt: letters of mixed scripts, a
 * hidden character, nothing to read. Any of these leaves the notification with Open only.
 */
export function imitatesOwnButton(label: string): boolean {
  const f = skeleton(label);
  // Holding one of our words counts, not only being it: "Open now" and "Approved" beside our own
  // Open and Approve read as ours (#52, "the three labels"; docs/decisions.md).
  return f === '' || mixedScripts(label) || holdsHidden(label) || ownButtonWords().some((w) => f.includes(skeleton(w)));
}

export interface AnswerButton {
  label: string;
  answer: AnswerPayload;
  /** What the answer says, for the notification after the press; the label when not given. */
  said?: string;
}
/** The answers a notification offers as buttons, or none (then it offers Open). */
export type ButtonSet = { kind: 'answers'; answers: AnswerButton[] } | { kind: 'open' };

/**
 * Answers as buttons only when one press says all, over words the notification shows whole (its
 * title, its summary, a helper's proposal; see `notificationText`) and holding no hidden character
 * (`hidesCharacters`) nor look-alike word (`showsLookAlikes`): an approval, or a single choice with up to three options whose labels are
 * shown whole, told apart by what the eye sees (their skeletons differ), and none of which reads
 * as the notification's own buttons (`imitatesOwnButton`). High stakes: never (their own page decides); everything else
 * (more options, several choices, questions, failures, text) opens. A card a `loop` helper
 * returned with a proposal that fits it: "Accept proposal", one press (answering otherwise is Open).
 */
export function buttonSet(card: Card): ButtonSet {
  if (card.highStakes || !shownWhole(card) || hidesCharacters(card) || showsLookAlikes(card)) return { kind: 'open' };
  const proposal = card.proposal !== undefined ? readProposal(card) : undefined;
  if (proposal) {
    return proposal.accept
      ? { kind: 'answers', answers: [{ label: t('Accept proposal'), answer: proposal.accept, said: proposalWords(card, PROPOSAL_MAX) ?? t('the helper\'s proposal') }] }
      : { kind: 'open' };
  }
  if (card.kind === 'approval') {
    return { kind: 'answers', answers: approvalAnswers().map((a) => ({ label: a.label, answer: { approved: a.approved } })) };
  }
  if (card.kind !== 'choice' || card.multi) return { kind: 'open' };
  const options = card.options ?? [];
  if (options.length === 0 || options.length > MAX_ANSWER_BUTTONS) return { kind: 'open' };
  const answers: AnswerButton[] = [];
  for (const o of options) {
    const label = wholeText(o.label, BUTTON_MAX);
    if (label === undefined || imitatesOwnButton(label)) return { kind: 'open' };
    answers.push({ label, answer: { choiceIds: [o.id] } });
  }
  const labels = new Set(options.map((o) => skeleton(o.label)));
  if (labels.size !== answers.length) return { kind: 'open' };
  return { kind: 'answers', answers };
}

/** Whether the notification shows the card's words whole: its title, its summary, a helper's proposal. */
export function shownWhole(card: Card): boolean {
  if (wholeText(card.title, TITLE_MAX) === undefined) return false;
  // A command of several lines, a run of blank lines or a very long line has no one-line form (#52 F4).
  if (card.summary && (!fitsOneLine(card.summary) || wholeText(summaryOneLine(card.summary), SUMMARY_MAX) === undefined)) return false;
  const proposal = card.proposal !== undefined ? readProposal(card) : undefined;
  return !proposal || wholeText(proposal.lines.join(' '), PROPOSAL_MAX) !== undefined;
}

/** A `loop` helper's proposal in the card's words, one plain line; undefined without one. */
export function proposalWords(card: Card, max: number): string | undefined {
  const view = card.proposal !== undefined ? readProposal(card) : undefined;
  return view ? plainText(view.lines.join(' '), max) : undefined;
}

/** "Claude · main": the assistant, and its agent when known; plain. Undefined when unknown. */
export function who(card: Pick<Card, 'assistant' | 'agent'>): string | undefined {
  if (!card.assistant) return undefined;
  return plainText(card.agent ? `${card.assistant.name} · ${card.agent.name}` : card.assistant.name, 48);
}

/**
 * The notification's words: who asks, where (the terminal's name in this window, when known),
 * the card's title, its summary, and a helper's proposal. All plain: names and titles come from
 * the service, terminal names from whatever runs in the terminal. Each part is shown whole when it
 * fits (`shownWhole`); a part cut short leaves the notification with Open only.
 */
export function notificationText(card: Card, terminalName: string | undefined, returned: boolean): string {
  const asker = who(card);
  // Look-alike words show their odd letters as marks, as in the panel (#52).
  const title = plainText(markLookAlikes(card.title), TITLE_MAX);
  const where = terminalName ? plainText(terminalName, 40) : undefined;
  const head = asker && where ? t('{0} (terminal "{1}")', asker, where) : asker ?? (where ? t('Terminal "{0}"', where) : t('An assistant'));
  const summary = card.summary ? plainText(markLookAlikes(summaryOneLine(card.summary)), SUMMARY_MAX) : undefined;
  const proposed = proposalWords(card, PROPOSAL_MAX);
  let text: string;
  if (card.kind === 'update') text = t('{0}: {1}', head, title);
  else if (!returned && !proposed) text = t('{0} asks: {1}', head, title);
  else text = proposed ? t('{0}: back to you: {1} · the helper proposes: {2}', head, title, proposed) : t('{0}: back to you: {1}', head, title);
  return summary ? t('{0} · {1}', text, summary) : text;
}

/**
 * Cards that arrived with the one a notification shows (while it gathered or showed): how many
 * more wait, and the next one's asker and title, so "Open Next" says what it opens. "blocking" when every
 * one counted blocks (under `notify: all` some may not). Plain.
 */
export function moreWaitingText(more: number, nextTitle: string, allBlocking = true, asker?: string): string {
  // Who asks the next card, as every other card notification says (#54).
  const title = asker ? t('{0} asks: {1}', plainText(asker, 48), plainText(nextTitle, 60)) : plainText(nextTitle, 60);
  if (!allBlocking) return more === 1 ? t('1 more card waits; next: {0}', title) : t('{0} more cards wait; next: {1}', more, title);
  return more === 1 ? t('1 more blocking card waits; next: {0}', title) : t('{0} more blocking cards wait; next: {1}', more, title);
}

/** What a notification counts of the cards that came with its card: the next (shared/next-card.ts), and whether all of them block. */
export interface MoreWaiting { more: number; title: string; allBlocking?: boolean; who?: string }

/** A notification's words, then the cards that came with its card while any still waits. */
export function withMoreWaiting(text: string, next: MoreWaiting | undefined): string {
  // `more` counts the cards after `next`; the words count `next` too.
  return next ? t('{0} · {1}', text, moreWaitingText(next.more + 1, next.title, next.allBlocking ?? true, next.who)) : text;
}

/**
 * The notification that tells, once its notification has ended, the cards that arrived while it
 * showed and no notification has told yet (#38): "N more wait", with Open Next.
 */
export function stillWaitingText(next: MoreWaiting): string {
  return t('Assistant Cards: {0}', moreWaitingText(next.more + 1, next.title, next.allBlocking ?? true, next.who));
}
