// The name of every command the extension registers (commands.ts) and the manifest contributes
// (package.json). Without `vscode`, so a plain-Node test can hold the two against each other.
// The card actions' commands come from their rows (card-actions.ts `command`).
import { ACTION_TYPES, CARD_ACTIONS, type ActionCommand } from './card-actions';

const OWN_NAMES = [
  'signIn', 'signOut', 'refresh', 'openCard', 'openInBrowser', 'showLog', 'focusTerminal', 'startSandbox',
  'filter', 'toggleScope', 'cardsOfActiveTerminal', 'nextCard', 'clearFilter', 'scopeWindow',
  'scopeComputer', 'scopeEverywhere', 'searchAnswers', 'clearAnswerSearch', 'exportAnswers', 'loadMoreAnswers', 'stopAnswerSearch',
  'copySignInCode', 'cancelSignIn',
  // One pair for every CLI adapter (src/bridge/clis/): the CLI's id as argument, or a pick.
  'connectCli', 'disconnectCli',
  'startLocalService', 'stopLocalService', 'allowSignIn',
] as const;

export type CommandName = (typeof OWN_NAMES)[number] | ActionCommand;
export const COMMAND_NAMES: readonly CommandName[] = [...OWN_NAMES, ...ACTION_TYPES.map((a) => CARD_ACTIONS[a].command)];
export const commandId = (name: CommandName): string => `assistantCards.${name}`;
