// Which cards are handed over in `loop` only (#52): an approval that gates what a CLI runs on this
// computer. The helper's answer then comes back to the person as a proposal; the bridge takes no
// helper's answer as the CLI's decision either (src/bridge/permission-card.ts). Pure.
import { t } from './l10n';

/**
 * The apps of the spec's enum (person-api.md "App enum") that are no CLI running commands on this
 * computer: the chat apps (ChatGPT, Claude) and a server's webhook. Every other app's approval is
 * handed over in `loop` only: the CLIs we connect (each adapter's service app, Copilot CLI's
 * `other` too), the ones we do not connect yet (cursor, pi, grok), and those we cannot tell (muse,
 * dots, any value the enum may grow): the safe side, since the bridge takes no helper's answer as a
 * CLI's decision, and a `freely` hand-over of a CLI's prompt would have decided nothing. So a new
 * CLI adapter needs no edit here (test/shared/helper-cli-command.test.ts holds each adapter's app).
 */
export const NOT_CLI_APPS: readonly string[] = ['chatgpt', 'claude', 'webhook'];

/** Whether an app's approvals gate what a CLI runs on this computer (any app but NOT_CLI_APPS; none named: no). */
export function isCliApp(app: string | undefined): boolean {
  return !!app && !NOT_CLI_APPS.includes(app);
}

/** Whether the card gates a command a CLI will run (an approval its hook asked): handed over in `loop` only. */
export function loopOnly(card: { kind: string; assistant?: { app?: string } } | undefined): boolean {
  return card?.kind === 'approval' && isCliApp(card.assistant?.app);
}

/** Why a card is handed over in `loop` only, for the hand-over pick. */
export function loopOnlyWords(): string {
  return t('A CLI\'s command: only you approve what it runs, so the helper\'s answer comes back to you as a proposal (loop).');
}
