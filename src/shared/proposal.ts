// A `loop` helper's proposal, read as the card's own words: the option labels, question titles
// and step titles of the card it answers, never ids or JSON. `accept` is the answer the person
// sends with one press when they take the proposal as theirs; it is there only when every part
// of the proposal fits the card (a helper's id the card does not offer is shown, never sent).
// The proposal is service data, so hostile: its words reach the person as plain text only.
import type { PanelCard } from './panel-card';
import { oneLine } from './format';
import { t } from './l10n';
import type { AnswerPayload } from './protocol';

export interface ProposalView {
  /** The helper's assistant (and agent) id, for the caller to name. */
  helper?: { assistantId: string; agentId?: string };
  /** What the helper proposes, one line per part, in the card's words. */
  lines: string[];
  /** The answer to send on "Accept", or undefined when the proposal does not fit the card. */
  accept?: AnswerPayload;
}

const MAX_TEXT = 10_000;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';

/** The parts of a card a proposal is read against (the panel's card, or the wire's whole card). */
export type ProposalCard = Pick<PanelCard, 'kind' | 'proposal' | 'options' | 'multi' | 'steps' | 'asks'>;

export function readProposal(card: ProposalCard): ProposalView | undefined {
  const p = card.proposal;
  if (!isObj(p)) return undefined;
  const lines: string[] = [];
  const accept: AnswerPayload = {};
  let fits = true;
  const misfit = (line: string) => { lines.push(line); fits = false; };

  const h = p.helper;
  const helper = isObj(h) && isStr(h.assistantId)
    ? { assistantId: h.assistantId, ...(isStr(h.agentId) ? { agentId: h.agentId } : {}) } : undefined;

  if (p.theyDecide === true) { lines.push(t('Leave the decision to the assistant.')); accept.theyDecide = true; }
  if (p.approved === true || p.approved === false) {
    lines.push(p.approved ? t('Approve.') : t('Decline.'));
    if (card.kind === 'approval') accept.approved = p.approved; else fits = false;
  }
  if (p.choiceIds !== undefined) {
    const ids = Array.isArray(p.choiceIds) ? p.choiceIds.filter(isStr) : [];
    const labels = ids.map((id) => card.options?.find((o) => o.id === id)?.label);
    const known = labels.filter((l): l is string => l !== undefined).map((l) => oneLine(l, 200));
    if (known.length) lines.push(known.length > 1 ? t('Choose: {0}.', known.join(', ')) : t('Choose {0}.', known[0]!));
    const unknown = labels.length - known.length + ((Array.isArray(p.choiceIds) ? p.choiceIds.length : 1) - ids.length);
    if (unknown > 0) misfit(t('Choose {0} option(s) this card does not offer.', unknown));
    // An approval's options are its "Always allow" (a rule the CLI writes for good, #54): the
    // person's own pick, never taken from a helper with one press; they press it themselves.
    if (card.kind === 'approval' && ids.length) misfit(t('An approval\'s option is yours to pick: choose it yourself below.'));
    else if (!ids.length || (ids.length > 1 && !card.multi)) fits = false;
    else accept.choiceIds = ids;
  }
  if (p.failedStep !== undefined) {
    const step = Number.isInteger(p.failedStep) ? card.steps?.[p.failedStep as number] : undefined;
    if (step) { lines.push(t('The step that failed: {0}.', oneLine(step.title, 200))); accept.failedStep = p.failedStep as number; }
    else misfit(t('A step this card does not list.'));
  }
  if (p.answers !== undefined) {
    if (!isObj(p.answers)) misfit(t('Answers this card cannot take.'));
    else {
      const answers: Record<string, string> = {};
      for (const [askId, value] of Object.entries(p.answers)) {
        const ask = card.asks?.find((a) => a.id === askId);
        const option = ask?.options?.find((o) => o.id === value);
        if (!ask || !isStr(value) || (ask.options?.length && !option)) { misfit(t('An answer to a question this card does not ask.')); continue; }
        lines.push(t('{0}: {1}', oneLine(ask.title, 200), oneLine(option ? option.label : value, 500)));
        answers[askId] = value;
      }
      accept.answers = answers;
    }
  }
  if (p.text !== undefined) {
    if (isStr(p.text) && p.text.trim() && p.text.length <= MAX_TEXT) { lines.push(t('Answer: {0}', p.text.trim())); accept.text = p.text; accept.via = 'text'; }
    else fits = false;
  }
  const note = isObj(p.note) && isStr(p.note.text) ? p.note.text : undefined;
  if (note?.trim() && note.length <= MAX_TEXT) { lines.push(t('Note: {0}', note.trim())); accept.note = { text: note }; accept.via = 'text'; }

  if (!lines.length) return { ...(helper ? { helper } : {}), lines: [t('The helper sent an answer this editor cannot show. Open the card in the browser to read it.')] };
  const sendable = fits && (accept.theyDecide || accept.approved !== undefined || accept.choiceIds || accept.failedStep !== undefined || accept.answers || accept.text);
  return { ...(helper ? { helper } : {}), lines, ...(sendable ? { accept } : {}) };
}
