// What the person answered, in words, for the panel after a press. Built from the card's own
// option and question labels; the panel shows it as plain text (card text is hostile).
import { t } from './l10n';
import type { Card } from '../api/schemas';
import type { AnswerPayload } from './protocol';
import { oneLine } from './format';

export function answerSummary(card: Card | undefined, body: AnswerPayload): string {
  const lines: string[] = [];
  const label = (id: string, options = card?.options) => oneLine(options?.find((o) => o.id === id)?.label ?? id, 200);
  if (body.theyDecide) lines.push(t('You left the decision to the assistant.'));
  if (body.approved === true) lines.push(t('You approved.'));
  if (body.approved === false) lines.push(t('You declined.'));
  if (body.choiceIds?.length) lines.push(t('You chose: {0}.', body.choiceIds.map((id) => label(id)).join(', ')));
  if (body.failedStep !== undefined && card?.steps?.[body.failedStep]) lines.push(t('About the step: {0}.', oneLine(card.steps[body.failedStep]!.title, 200)));
  if (body.text?.trim()) lines.push(t('You answered: {0}', body.text.trim()));
  for (const [askId, value] of Object.entries(body.answers ?? {})) {
    const ask = card?.asks?.find((a) => a.id === askId);
    const shown = ask?.options?.length ? label(value, ask.options) : value;
    lines.push(t('{0}: {1}', oneLine(ask?.title ?? askId, 200), shown));
  }
  if (body.note?.text.trim()) lines.push(t('Note: {0}', body.note.text.trim()));
  return lines.join('\n');
}
