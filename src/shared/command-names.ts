// The name of every command the extension registers (commands.ts) and the manifest contributes
// (package.json). Without `vscode`, so a plain-Node test can hold the two against each other.
export const COMMAND_NAMES = [
  'signIn', 'signOut', 'refresh', 'openCard', 'answer', 'undo', 'writeToAssistant', 'later', 'back',
  'handOver', 'takeBack', 'openInBrowser', 'showLog', 'focusTerminal', 'startSandbox', 'gotIt',
  'filter', 'toggleScope', 'cardsOfActiveTerminal', 'nextCard', 'clearFilter', 'scopeWindow',
  'scopeComputer', 'scopeEverywhere', 'searchAnswers', 'clearAnswerSearch', 'exportAnswers', 'loadMoreAnswers', 'stopAnswerSearch',
  'copySignInCode', 'cancelSignIn',
  // One pair per CLI adapter (src/bridge/clis/index.ts; test/bridge/clis/index.test.ts keeps them in step).
  'connectClaudeCode', 'connectCodex', 'connectGeminiCli', 'connectCopilotCli', 'connectOpenCode',
  'disconnectClaudeCode', 'disconnectCodex', 'disconnectGeminiCli', 'disconnectCopilotCli', 'disconnectOpenCode',
  'startLocalService', 'stopLocalService', 'allowSignIn',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];
export const commandId = (name: CommandName): string => `assistantCards.${name}`;
