// Every command the manifest contributes, registered in one place. The ids come from one list so a
// test can compare them with package.json. Handlers here are the first, simple versions: the
// editor layer (issue 5/6) replaces them with the real actions.
import * as vscode from 'vscode';
import type { Log } from './log';

export const COMMAND_NAMES = [
  'signIn', 'signOut', 'refresh', 'openCard', 'answer', 'undo', 'writeToAssistant', 'later', 'back',
  'handOver', 'takeBack', 'openInBrowser', 'showLog', 'focusTerminal', 'startSandbox', 'gotIt',
  'filter', 'toggleScope', 'cardsOfActiveTerminal', 'nextCard',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];
export const commandId = (name: CommandName): string => `assistantCards.${name}`;

export interface CommandDeps {
  log: Log;
  /** Re-reads settings and the computer identity file and updates the views. */
  refreshState(): void;
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const notYet = (name: CommandName) => () => {
    deps.log.info(`command ${name}: not available in this build yet`);
    void vscode.window.showInformationMessage(
      `Assistant Cards: "${name}" is not available in this build yet. See the log for details.`,
    );
  };
  const handlers: Record<CommandName, (...args: unknown[]) => unknown> = {
    signIn: notYet('signIn'),
    signOut: notYet('signOut'),
    refresh: () => deps.refreshState(),
    openCard: notYet('openCard'),
    answer: notYet('answer'),
    undo: notYet('undo'),
    writeToAssistant: notYet('writeToAssistant'),
    later: notYet('later'),
    back: notYet('back'),
    handOver: notYet('handOver'),
    takeBack: notYet('takeBack'),
    openInBrowser: notYet('openInBrowser'),
    showLog: () => deps.log.show(),
    focusTerminal: notYet('focusTerminal'),
    startSandbox: notYet('startSandbox'),
    gotIt: notYet('gotIt'),
    filter: notYet('filter'),
    toggleScope: async () => {
      const config = vscode.workspace.getConfiguration('assistantCards');
      const next = config.get<string>('scope') === 'machine' ? 'workspace' : 'machine';
      await config.update('scope', next, vscode.ConfigurationTarget.Global);
    },
    cardsOfActiveTerminal: notYet('cardsOfActiveTerminal'),
    nextCard: notYet('nextCard'),
  };
  return COMMAND_NAMES.map((name) => vscode.commands.registerCommand(commandId(name), handlers[name]));
}
