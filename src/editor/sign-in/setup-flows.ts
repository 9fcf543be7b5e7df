// The person-facing flows that set this computer up and sign it in: the interactive sign-in (and
// what to say when there is nothing to sign in to), and starting the local sandbox.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Me } from '../../api/schemas';
import type { LiveParts } from '../live-parts';
import type { Log } from '../base/log';
import type { SandboxLauncher } from '../connection/sandbox-launcher';
import { say } from '../base/say';
import { machineFile, resolveBaseUrl } from '../connection/service-settings';

export interface SetupHost {
  log: Log;
  launcher: Pick<SandboxLauncher, 'start' | 'owns'>;
  live(): LiveParts | undefined;
  /** Resolves once a rebuild under way (if any) is done. */
  settled(): Promise<void>;
  refreshState(): Promise<void>;
}

export async function signInFlow(host: SetupHost): Promise<Me | undefined> {
  await host.settled();
  let live = host.live();
  if (!live) {
    await host.refreshState();
    live = host.live();
    if (!live) {
      const pick = await say.warn(
        vscode.l10n.t('Assistant Cards: this computer is not set up (no computer identity file, or no service address).'),
        vscode.l10n.t('Start Local Sandbox'), vscode.l10n.t('Open Settings'));
      if (pick === vscode.l10n.t('Start Local Sandbox')) await startSandboxFlow(host);
      if (pick === vscode.l10n.t('Open Settings')) void vscode.commands.executeCommand('workbench.action.openSettings', 'assistantCards');
      return undefined;
    }
  }
  await live.started;
  if (live.core.state.kind === 'online') return live.core.state.me;
  const me = await live.signIn(host.log);
  if (me) void vscode.authentication.getSession('assistant-cards', [], { silent: true }).then(undefined, () => undefined);
  return me;
}

/**
 * The "Start Local Sandbox" command: it takes no arguments, so any extension or command link can
 * run it (#37). While this window is set up for a service that is not the sandbox's (an address
 * in the settings, or the person's identity file naming one), the person confirms first, shown
 * the address this window leaves; nothing changes otherwise.
 */
export async function startSandboxAskedFlow(host: SetupHost): Promise<void> {
  const file = machineFile();
  const current = resolveBaseUrl(file);
  if (current && !host.launcher.owns(file)) {
    // A notification, not a modal: the command may not be the person's (a modal would take the keyboard).
    const start = vscode.l10n.t('Start Sandbox');
    const picked = await say.warn(
      vscode.l10n.t('Assistant Cards: start the local sandbox and use it instead of {0}? Your identity file for {0} stays as it is; a service address in your settings is cleared.', current),
      start);
    if (picked !== start) { host.log.info('sandbox: not started; the service in use stays'); return; }
  }
  await startSandboxFlow(host);
}

export async function startSandboxFlow(host: SetupHost): Promise<void> {
  try {
    const { url, machineFile: identity } = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Assistant Cards: starting the local sandbox') },
      () => host.launcher.start(machineFile()),
    );
    const cfg = vscode.workspace.getConfiguration('assistantCards');
    // The address lives only in the sandbox's own identity file, which the sandbox blanks when it
    // stops: a setting would outlive it, and whoever binds that port next would get the
    // attestation and tokens. A user-level address (an earlier sandbox's) would override the file.
    if (cfg.inspect<string>('baseUrl')?.globalValue) {
      host.log.info('sandbox: the user-level assistantCards.baseUrl is cleared; the sandbox\'s identity file names its address');
      await cfg.update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    }
    // The person's identity of a real service stays as it is; the sandbox made one of its own.
    if (path.resolve(identity) !== path.resolve(machineFile())) await cfg.update('machineFile', identity, vscode.ConfigurationTarget.Global);
    await host.refreshState();
    const pick = await say.info(vscode.l10n.t('Assistant Cards: the local sandbox runs at {0} and this computer is set up for it.', url), vscode.l10n.t('Sign In'));
    if (pick) await signInFlow(host);
  } catch (e) {
    host.log.error(`sandbox: ${String(e)}`);
    void say.error(vscode.l10n.t('Assistant Cards: the local sandbox did not start: {0}. See the log.', (e as Error).message), vscode.l10n.t('Show Log'))
      .then((p) => { if (p) host.log.show(); });
  }
}
