// Which cards the cards tree shows. `workspace` scope (default): the cards of the assistants whose
// live sessions run in this window's terminals; `machine`: every card of this computer;
// `everywhere`: every card of the person's computers (the sign-in needs cards:read:all). "Cards of
// the active terminal" narrows workspace scope to one terminal until the scope is toggled, the
// terminal closes, or it is asked again with no terminal active.
import * as vscode from 'vscode';
import { say } from '../base/say';
import type { CardModelView, CardScope } from '../../sync/contract';
import { CONTEXT, type ContextKeys } from '../context-keys';
import { DisposableBase } from '../base/disposable';
import type { Log } from '../base/log';
import type { TerminalMatcher } from '../assistants/terminals';
import { ownValue, SCOPE_ORDER } from '../../shared/own-setting';

export type ScopeSetting = 'workspace' | 'machine' | 'everywhere';

/**
 * The scope from the person's own settings: a folder's `.vscode/settings.json` may narrow it,
 * never widen it (an `everywhere` there would make the next sign-in ask to read every card;
 * shared/own-setting.ts).
 */
export function scopeSetting(): ScopeSetting {
  return ownValue(vscode.workspace.getConfiguration('assistantCards').inspect('scope'), SCOPE_ORDER, 'workspace');
}

/** This computer as the sign-in names it, and when that may have changed. */
export interface ThisComputer {
  id(): string | undefined;
  onDidChange: (listener: () => void) => { dispose(): void };
}

export class ScopeController extends DisposableBase {
  private terminal: vscode.Terminal | undefined;
  private last: string | undefined;
  /** This computer's id, once the sign-in named it (kept while offline: the scope stays put). */
  private computerId: string | undefined;

  constructor(
    private readonly cards: Pick<CardModelView, 'setScope'>,
    private readonly matcher: TerminalMatcher,
    private readonly log: Log,
    private readonly contextKeys: ContextKeys,
    private readonly computer: ThisComputer,
  ) {
    super();
    this._register(matcher.onDidChange(() => this.apply()));
    this._register(computer.onDidChange(() => this.apply()));
    this._register(vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('assistantCards.scope')) { this.terminal = undefined; this.apply(); }
    }));
    this._register(vscode.window.onDidCloseTerminal((t) => {
      if (t === this.terminal) { this.terminal = undefined; this.apply(); }
    }));
    this.apply();
  }

  /** What the tree should show now. */
  current(): CardScope {
    const setting = scopeSetting();
    if (setting === 'everywhere' && !this.terminal) return { kind: 'everywhere' };
    if (setting === 'machine' && !this.terminal) {
      // A sign-in that reaches every computer still shows only this one's cards here.
      this.computerId = this.computer.id() ?? this.computerId;
      return this.computerId ? { kind: 'machine', machineId: this.computerId } : { kind: 'machine' };
    }
    const ids = this.terminal ? this.matcher.assistantIdsIn(this.terminal) : this.matcher.assistantIdsInWindow();
    return { kind: 'workspace', assistantIds: ids.sort() };
  }

  /** Hands the scope to the card model, only when it changed (each change costs the model a read). */
  apply(): void {
    if (this.isDisposed) return;
    const scope = this.current();
    const key = JSON.stringify(scope);
    this.contextKeys.set(CONTEXT.terminalScope, this.terminal !== undefined);
    this.contextKeys.set(CONTEXT.scope, scopeSetting());
    if (key === this.last) return;
    this.last = key;
    this.log.debug(`scope: ${scope.kind !== 'workspace' ? scope.kind : `workspace, ${scope.assistantIds.length} assistants${this.terminal ? ` of terminal "${this.terminal.name}"` : ''}`}`);
    this.cards.setScope(scope);
  }

  /**
   * The palette's toggle: workspace -> machine, machine or everywhere -> workspace (the view's
   * scope button offers all three: scope-pick.ts).
   */
  async toggle(): Promise<ScopeSetting> {
    const next: ScopeSetting = scopeSetting() === 'workspace' ? 'machine' : 'workspace';
    await this.set(next);
    return next;
  }

  /**
   * Stored in the person's own settings (a folder's value cannot widen it), and in the folder's
   * too where one is set (so a narrower folder value does not hold the choice back).
   */
  async set(next: ScopeSetting): Promise<void> {
    const config = vscode.workspace.getConfiguration('assistantCards');
    const inspect = config.inspect<string>('scope');
    this.terminal = undefined;
    await config.update('scope', next, vscode.ConfigurationTarget.Global);
    if (inspect?.workspaceFolderValue !== undefined || inspect?.workspaceValue !== undefined) await config.update('scope', next, vscode.ConfigurationTarget.Workspace);
    this.apply();
  }

  /** "Cards of the active terminal" (palette) or of the terminal its context menu was opened on. */
  async cardsOfTerminal(terminal: vscode.Terminal | undefined = vscode.window.activeTerminal): Promise<void> {
    if (!terminal) {
      void say.info(vscode.l10n.t('Assistant Cards: no terminal is active. Open or focus the terminal your assistant runs in, then try again.'));
      return;
    }
    await this.matcher.rematch();
    this.terminal = terminal;
    this.apply();
    const ids = this.matcher.assistantIdsIn(terminal);
    await vscode.commands.executeCommand('assistantCards.cards.focus');
    const message = ids.length
      ? vscode.l10n.t('Assistant Cards: showing the cards of terminal "{0}".', terminal.name)
      : vscode.l10n.t('Assistant Cards: no live assistant runs in terminal "{0}", so no cards are shown.', terminal.name);
    // Not awaited: the command is done once the tree is narrowed; the message may stay open.
    void say.info(message, vscode.l10n.t('Show all of this window')).then((pick) => {
      if (pick && this.terminal === terminal) this.clearTerminal();
    });
  }

  clearTerminal(): void {
    this.terminal = undefined;
    this.apply();
  }

  terminalInScope(): vscode.Terminal | undefined { return this.terminal; }
}
