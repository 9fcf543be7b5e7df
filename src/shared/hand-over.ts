// The hand-over's choices and words, shared by the palette and the card panel: which assistants
// may help (never the one that asked: the service refuses that), and what the answer's `hears`
// tells the person. No `vscode` here.
import type { PanelCard } from './panel-card';
import { oneLine } from './format';
import { t } from './l10n';

/** The assistants a card may be handed to: every one in reach but the card's own asker. */
export function helperChoices<A extends { id: string }>(assistants: readonly A[], card: { assistant?: { id: string } } | undefined): A[] {
  const asker = card?.assistant?.id;
  return assistants.filter((a) => a.id !== asker);
}

/**
 * The words for the delegate answer's `hears`: when the helper hears the card. `while-working` is
 * the one value the spec shows (it hears it while it works, without waiting to be idle); any
 * other value is shown as the service sent it, as text.
 */
export function hearsWords(hears: string | undefined, helper: string): string {
  const who = oneLine(helper, 80) || t('The helper');
  if (!hears) return t('{0} gets it after the 5 s to take it back.', who);
  if (hears === 'while-working') return t('{0} hears it while it works, after the 5 s to take it back.', who);
  return t('{0} hears it: {1}.', who, oneLine(hears, 80));
}

/** The step the card marks as failed (its first `failed` step), the default of the person's pick. */
export function markedFailedStep(card: Pick<PanelCard, 'steps'>): number | undefined {
  const i = (card.steps ?? []).findIndex((s) => s.state === 'failed');
  return i >= 0 ? i : undefined;
}

/**
 * A helper's name from the assistants read: the assistant's, and its agent's when known. Undefined
 * until the list is read, or when the helper is not in it: a helper is never named by its id (#38).
 */
export function helperNameOf(
  list: readonly { id: string; name: string; agents: readonly { id: string; name: string }[] }[] | undefined,
  assistantId: string,
  agentId?: string,
): string | undefined {
  const a = list?.find((x) => x.id === assistantId);
  if (!a) return undefined;
  const g = agentId ? a.agents.find((x) => x.id === agentId) : undefined;
  return g ? `${a.name} · ${g.name}` : a.name;
}
