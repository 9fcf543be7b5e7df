// Which cards are handed over in `loop` only (#52): an approval that gates what a CLI runs on this
// computer. The helper's answer then comes back to the person as a proposal; the bridge takes no
// helper's answer as the CLI's decision either (src/bridge/permission-card.ts). Pure.
import { t } from './l10n';

/**
 * The apps whose approvals gate what a CLI runs on this computer (the bridge's hooks ask them):
 * every adapter's service app (test/shared/helper-cli-command.test.ts holds it). Copilot CLI
 * registers as `other` (the spec's app list has no Copilot), so any `other` app's approval is
 * handed over in `loop` only: the safe side, since the bridge takes no helper's answer as a CLI's
 * decision, and a `freely` hand-over of a Copilot CLI prompt would have decided nothing.
 */
export const CLI_APPS: readonly string[] = ['claude-code', 'codex', 'gemini-cli', 'opencode', 'copilot-cli', 'cursor', 'other'];

/** Whether the card gates a command a CLI will run (an approval its hook asked): handed over in `loop` only. */
export function loopOnly(card: { kind: string; assistant?: { app?: string } } | undefined): boolean {
  return card?.kind === 'approval' && CLI_APPS.includes(card.assistant?.app ?? '');
}

/** Why a card is handed over in `loop` only, for the hand-over pick. */
export function loopOnlyWords(): string {
  return t('A CLI\'s command: only you approve what it runs, so the helper\'s answer comes back to you as a proposal (loop).');
}
