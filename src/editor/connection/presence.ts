// Presence: the person is "here" while this window is focused and they are active in it
// (WindowState.focused && active). The client core's pinger sends here:true every 30 s while told
// so, and here:false once when told they left. We tell it on focus, blur, inactivity, a change of
// the `assistantCards.presence` setting, and on shutdown.
//
// Several windows: only the window that owns the change feed (the core's lease, claimed by the
// focused window; extension.ts reports focus to it) speaks presence, so two windows never ping at once.
import * as vscode from 'vscode';
import type { Event } from '../../sync/contract';
import { DisposableBase } from '../base/disposable';
import type { Log } from '../base/log';

export interface PresencePort { setHere(here: boolean): void }
export interface FeedOwnerPort {
  isOwner(): boolean;
  onDidChangeOwner: Event<boolean>;
}

/** What decides presence, apart from vscode: kept small so it reads as the rule it is. */
export interface PresenceInputs { enabled: boolean; signedIn: boolean; focused: boolean; active: boolean; owner: boolean }
export const isHere = (i: PresenceInputs): boolean => i.enabled && i.signedIn && i.focused && i.active && i.owner;

export class PresenceReporter extends DisposableBase {
  private inputs: PresenceInputs;
  private here = false;

  constructor(
    private readonly presence: PresencePort,
    feed: FeedOwnerPort | undefined,
    signedIn: () => boolean,
    onDidChangeSignedIn: Event<unknown>,
    private readonly log: Log,
  ) {
    super();
    const ws = vscode.window.state;
    this.inputs = {
      enabled: enabledSetting(),
      signedIn: signedIn(),
      focused: ws.focused,
      active: windowActive(ws),
      owner: feed ? feed.isOwner() : true,
    };
    this._register(vscode.window.onDidChangeWindowState((s) => this.onWindowState(s)));
    this._register(vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('assistantCards.presence')) this.update({ enabled: enabledSetting() });
    }));
    if (feed) this._register(feed.onDidChangeOwner((owner) => this.update({ owner })));
    this._register(onDidChangeSignedIn(() => this.update({ signedIn: signedIn() })));
    this.update({});
  }

  private update(change: Partial<PresenceInputs>): void {
    if (this.isDisposed) return;
    this.inputs = { ...this.inputs, ...change };
    const next = isHere(this.inputs);
    if (next === this.here) return;
    this.here = next;
    // Leaving because the sign-in ended: nothing can be sent, and the core stops pinging itself.
    if (!next && !this.inputs.signedIn) return;
    this.log.debug(`presence: ${next ? 'here' : 'away'} (${describe(this.inputs)})`);
    this.presence.setHere(next);
  }

  /** VS Code's window state changed (also the seam a host test uses to blur a headless window). */
  onWindowState(s: Pick<vscode.WindowState, 'focused'> & { active?: boolean }): void {
    this.update({ focused: s.focused, active: s.active ?? true });
  }

  isHere(): boolean { return this.here; }

  /** Shutdown (deactivate): here:false once, if we had said here. */
  override dispose(): void {
    if (this.here && !this.isDisposed) {
      this.here = false;
      try { this.presence.setHere(false); } catch { /* shutting down */ }
    }
    super.dispose();
  }
}

function enabledSetting(): boolean {
  return vscode.workspace.getConfiguration('assistantCards').get<boolean>('presence', true) !== false;
}

/** `active` arrived in VS Code 1.89; older hosts lack it, where focus alone has to do. */
function windowActive(s: vscode.WindowState): boolean {
  return (s as { active?: boolean }).active ?? true;
}

function describe(i: PresenceInputs): string {
  return Object.entries(i).filter(([, v]) => !v).map(([k]) => `not ${k}`).join(', ') || 'focused and active'; // l10n-ignore: not words for people
}
