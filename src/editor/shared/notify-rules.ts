// The rules of a card's notification, apart from `vscode`: when one comes (the setting, the card,
// a return to the person), which buttons it offers, and how it says who asks and where. Every
// string from the service is made plain here; the notifier only shows what these rules return.
import type { Card, CardListEntry, HistoryEntry } from '../../api/schemas';
import type { AnswerPayload } from './protocol';
import { t } from './l10n';
import { plainText } from './plain-text';
import { waitsOnYou } from './card-facts';
import { readProposal } from './proposal';

/** `assistantCards.notify`: like VS Code's `chat.notifyWindowOnConfirmation`. */
export type NotifySetting = 'blocking' | 'all' | 'off';
export const NOTIFY_SETTINGS: readonly NotifySetting[] = ['blocking', 'all', 'off'];

/** The setting as written; anything unknown is the default, `blocking`. */
export function notifySetting(value: unknown): NotifySetting {
  return NOTIFY_SETTINGS.includes(value as NotifySetting) ? value as NotifySetting : 'blocking';
}

/** A button label's length: VS Code's notification buttons do not wrap. */
export const BUTTON_MAX = 30;
/** At most this many answers as buttons; more, and the card is opened to choose. */
export const MAX_ANSWER_BUTTONS = 3;

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

/** One line of hostile text, short enough for a button, inert. */
export function shortLabel(text: string, max = BUTTON_MAX): string {
  return plainText(text, max);
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
 * Answers as buttons only when one press says all: an approval, or a single choice with up to
 * three options whose labels stay told apart once shortened. High stakes: never (their own page
 * decides); everything else (more options, several choices, questions, failures, text) opens.
 * A card a `loop` helper returned with a proposal that fits it: "Accept proposal", one press
 * (answering otherwise is Open).
 */
export function buttonSet(card: Card): ButtonSet {
  if (card.highStakes) return { kind: 'open' };
  const proposal = card.proposal !== undefined ? readProposal(card) : undefined;
  if (proposal) {
    return proposal.accept
      ? { kind: 'answers', answers: [{ label: t('Accept proposal'), answer: proposal.accept, said: proposalWords(card, 60) ?? t('the helper\'s proposal') }] }
      : { kind: 'open' };
  }
  if (card.kind === 'approval') {
    return { kind: 'answers', answers: [{ label: t('Approve'), answer: { approved: true } }, { label: t('Decline'), answer: { approved: false } }] };
  }
  if (card.kind !== 'choice' || card.multi) return { kind: 'open' };
  const options = card.options ?? [];
  if (options.length === 0 || options.length > MAX_ANSWER_BUTTONS) return { kind: 'open' };
  const answers = options.map((o) => ({ label: shortLabel(o.label), answer: { choiceIds: [o.id] } }));
  const labels = new Set(answers.map((a) => a.label));
  if (labels.size !== answers.length || labels.has('')) return { kind: 'open' };
  return { kind: 'answers', answers };
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
 * and the card's title. All plain: names and titles come from the service, terminal names from
 * whatever runs in the terminal.
 */
export function notificationText(card: Card, terminalName: string | undefined, returned: boolean): string {
  const asker = who(card);
  const title = plainText(card.title, 100);
  const where = terminalName ? plainText(terminalName, 40) : undefined;
  const head = asker && where ? t('{0} (terminal "{1}")', asker, where) : asker ?? (where ? t('Terminal "{0}"', where) : t('An assistant'));
  if (card.kind === 'update') return t('{0}: {1}', head, title);
  if (!returned) return t('{0} asks: {1}', head, title);
  const proposed = proposalWords(card, 120);
  return proposed ? t('{0}: back to you: {1} · the helper proposes: {2}', head, title, proposed) : t('{0}: back to you: {1}', head, title);
}

/** After a press from the notification: what was answered, and how long Undo holds. */
export function answeredText(card: Pick<Card, 'title'>, label: string, secondsLeft: number): string {
  // The sentence ends its own words: a label's closing full stop is left out ("Choose Beta.").
  return t('Answered "{0}" with {1}. The assistant hears it in {2} s.', plainText(card.title, 60), shortLabel(label).replace(/\.+$/, ''), secondsLeft);
}
