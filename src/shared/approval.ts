// Approve and Decline, the two answers of an approval card: one definition for the panel's
// buttons, a notification's buttons and the palette's picks. Pure: no `vscode`.
import { t } from './l10n';

export interface ApprovalAnswer {
  label: string;
  approved: boolean;
}

/** Approve (the panel's first, primary button), then Decline; words made at call time (the translator is set at activation). */
export function approvalAnswers(): readonly [ApprovalAnswer, ApprovalAnswer] {
  return [{ label: t('Approve'), approved: true }, { label: t('Decline'), approved: false }];
}
