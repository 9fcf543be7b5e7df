// What a press in the card panel posts to the host: each function takes the panel's state and
// returns the one message to send (always naming the version on screen), or a refusal to show,
// or nothing when the press does nothing now. Pure, so it is tested in plain Node.
import type { PanelOption } from '../../src/shared/panel-card';
import { localDateTimeToIso } from '../../src/shared/format';
import { t } from '../../src/shared/l10n';
import type { ActionRequest, AnswerPayload, Notice, ShownProblem } from '../../src/shared/protocol';
import { markedFailedStep } from '../../src/shared/hand-over';
import { readProposal } from '../../src/shared/proposal';
import { withNote } from '../../src/shared/answer-choices';
import { actionRow, type VersionAction } from '../../src/shared/card-actions';
import type { PanelState } from './state';
import { canAnswer, canGoNext, completeForEnter, disabled, nextOffered, waitsOnYou } from './state';

/** What a press in the panel makes: `post`, the message to send (main.ts gives it its request id), or `refuse`, a problem to show (sync's `PressResult` is the service's answer to a sent press). */
export type PanelPress = { post: ActionRequest } | { refuse: ShownProblem } | undefined;

/** An answer with the note the person wrote (if any). */
export function answer(s: PanelState, b: AnswerPayload): PanelPress {
  if (disabled(s) || !s.allowed.answer) return undefined;
  return { post: { type: 'answer', version: s.shownVersion, body: withNote(b, s.draft.note) } };
}

/**
 * An approval's own option, pressed (#54: "Always allow: <rule> in <settings file>", the CLI's
 * "don't ask again"): approves with that option named. Only an option the card shows.
 */
export function approveWithOption(s: PanelState, optionId: string): PanelPress {
  const c = s.card;
  if (!c || c.kind !== 'approval' || !c.options?.some((o) => o.id === optionId)) return undefined;
  return answer(s, { approved: true, choiceIds: [optionId] });
}

/** The Answer button (and Enter): the form's picks and words. */
export function answerFromForm(s: PanelState): PanelPress {
  const c = s.card;
  if (!c || !canAnswer(s)) return undefined;
  const d = s.draft;
  const body: AnswerPayload = {};
  if (d.choiceIds?.length) body.choiceIds = d.choiceIds;
  if (c.kind !== 'choice' && d.text?.trim()) { body.text = d.text; body.via = 'text'; }
  if (c.kind === 'questions') body.answers = d.answers ?? {};
  if (c.kind === 'failure') {
    // The step the person picked; the card's own mark until they do.
    const idx = s.failedStep ?? markedFailedStep(c);
    if (idx !== undefined) body.failedStep = idx;
  }
  return answer(s, body);
}

/**
 * "Accept as my answer": a `loop` helper's proposal, sent as the person's answer in one press
 * (the version on screen). Only when the proposal fits the card; the draft's note is not added.
 */
export function acceptProposal(s: PanelState): PanelPress {
  const c = s.card;
  if (!c || disabled(s) || !s.allowed.answer || !waitsOnYou(c)) return undefined;
  const accept = readProposal(c)?.accept;
  return accept ? { post: { type: 'answer', version: s.shownVersion, body: { ...accept } } } : undefined;
}

/**
 * A press whose message is the version alone (Got it, Undo, Back, Take back), as its row in the
 * action table allows it: presses on, the sign-in allowed what it needs, and offered now.
 */
export function versionPress(s: PanelState, type: VersionAction): PanelPress {
  const row = actionRow(type);
  if (disabled(s) || row.needs.some((f) => !s.allowed[f]) || !(row.panel?.offered?.(s) ?? true)) return undefined;
  return { post: { type, version: s.shownVersion } };
}

/** Closes a notice: its own message, not an empty answer (Enter on a notice). */
export const gotIt = (s: PanelState): PanelPress => versionPress(s, 'gotIt');

/** Undo while the hold runs (the U key). */
export const undo = (s: PanelState): PanelPress => versionPress(s, 'undo');

export function later(s: PanelState, until: string): PanelPress {
  if (disabled(s) || !s.allowed.later) return undefined;
  return { post: { type: 'later', version: s.shownVersion, until } };
}

/** "Later until then": the date and time fields, in the person's time zone. */
export function laterAt(s: PanelState): PanelPress {
  const iso = localDateTimeToIso(s.draft.laterDate ?? '', s.draft.laterTime ?? '', s.timeZone);
  if (!iso) return { refuse: { code: 'bad_input', message: t('Pick a date and a time.'), next: t('Both fields are needed.') } };
  return later(s, iso);
}

export function message(s: PanelState): PanelPress {
  if (disabled(s) || !s.allowed.reply) return undefined;
  const text = s.draft.message?.trim();
  if (!text) return { refuse: { code: 'bad_input', message: t('Write something first.'), next: t('Type your words, then Send.') } };
  return { post: { type: 'message', version: s.shownVersion, body: text } };
}

/** The helper the hand-over form shows as picked: the draft's, else the first in the list. */
export function pickedHelper(s: PanelState): string | undefined {
  const list = s.assistants ?? [];
  return list.some((a) => a.id === s.draft.delegateAssistantId) ? s.draft.delegateAssistantId : list[0]?.id;
}

/** The agent the hand-over form shows as picked ('' is any agent). */
export function pickedAgent(s: PanelState): string {
  const agents = s.assistants?.find((a) => a.id === pickedHelper(s))?.agents ?? [];
  return agents.some((g) => g.id === s.draft.delegateAgentId) ? s.draft.delegateAgentId ?? '' : '';
}

export function delegate(s: PanelState): PanelPress {
  const assistantId = pickedHelper(s);
  if (disabled(s) || !s.allowed.delegate || !assistantId) return undefined;
  const agentId = pickedAgent(s);
  const note = s.draft.delegateNote?.trim();
  return {
    post: {
      type: 'delegate', version: s.shownVersion, assistantId, ...(agentId ? { agentId } : {}),
      mode: s.draft.delegateMode === 'loop' || s.card?.loopOnly ? 'loop' : 'freely', ...(note ? { note } : {}),
    },
  };
}

/** A digit key picks the option with that number, when the card asks (an approval's options are pressed, never picked by a key). */
export function optionForKey(s: PanelState, key: string): PanelOption | undefined {
  const c = s.card;
  if (!c || c.kind === 'approval' || !/^[1-9]$/.test(key) || !waitsOnYou(c) || disabled(s)) return undefined;
  return c.options?.[Number(key) - 1];
}

/** Enter outside a button: answers the form, or closes a notice. Approvals answer by their buttons only. */
export function enter(s: PanelState): PanelPress {
  const c = s.card;
  if (!c || !waitsOnYou(c)) return undefined;
  if (c.kind === 'update') return gotIt(s);
  if (c.kind === 'approval') return undefined;
  return completeForEnter(s) ? answerFromForm(s) : undefined;
}

/**
 * "Next" or N: open the card whose title the panel shows, in this panel. Only once the card on
 * screen no longer waits on the person, and not in the moment after the step came into view (a
 * key meant for the answer never moves on). It opens a card; it never answers one.
 */
export function openNext(s: PanelState, localNow: number, byKey: boolean): Extract<Notice, { type: 'openNext' }> | undefined {
  // A mouse click on the button counts, as for every press; a key waits out the moment.
  if (byKey ? !canGoNext(s, localNow) : !nextOffered(s)) return undefined;
  return { type: 'openNext', cardId: s.next!.id };
}
