// The device-flow sign-in as the person sees it: ONE notification with the code and Copy (the
// code), Open (the verification page) and Cancel, progress in the status bar, finishing by itself
// once the code is allowed. One sign-in at a time: a second call joins the first.
import * as vscode from 'vscode';
import type { Me } from '../api/schemas';
import type { ClientCore, DeviceProgress } from '../sync';
import type { Log } from './log';
import { safeExternalUrl } from './shared/protocol';

let running: Promise<Me | undefined> | undefined;

export function signInInteractive(core: ClientCore, log: Log): Promise<Me | undefined> {
  running ??= run(core, log).finally(() => { running = undefined; });
  return running;
}

async function run(core: ClientCore, log: Log): Promise<Me | undefined> {
  return vscode.window.withProgress(
    // The status bar, not a second notification: the code's notification is the only one.
    { location: vscode.ProgressLocation.Window, title: 'Assistant Cards: signing in' },
    async (progress) => {
      const abort = new AbortController();
      const finished = new AbortController();
      const onProgress = (p: DeviceProgress) => {
        if (p.step === 'code') {
          progress.report({ message: 'waiting for the code to be allowed' });
          log.info('sign-in: device code issued, waiting for approval');
          void offerCode(p.userCode, p.verificationUriComplete, abort, finished.signal);
        } else if (p.step === 'approved') {
          progress.report({ message: 'allowed, finishing…' });
        }
      };
      try {
        const me = await core.signIn({ onProgress, signal: abort.signal });
        log.info(`sign-in: signed in (grant ${me.grant.id})`);
        void vscode.window.showInformationMessage(`Assistant Cards: signed in${me.grant.machine ? ` on ${me.grant.machine.name}` : ''}.`);
        return me;
      } catch (e) {
        const err = e as { kind?: string; reason?: string; message?: string; whatToDo?: string };
        if (err.kind === 'device-flow' && err.reason === 'cancelled') { log.info('sign-in: cancelled'); return undefined; }
        log.warn(`sign-in failed: ${err.message ?? String(e)}`);
        if (err.kind === 'not-set-up') {
          const pick = await vscode.window.showErrorMessage(
            `Assistant Cards: this computer is not set up. ${err.whatToDo ?? ''}`, 'Start Local Sandbox', 'Show Log');
          if (pick === 'Start Local Sandbox') void vscode.commands.executeCommand('assistantCards.startSandbox');
          if (pick === 'Show Log') log.show();
        } else if (err.kind === 'network') {
          void vscode.window.showErrorMessage('Assistant Cards: the service cannot be reached. Check assistantCards.baseUrl and try again.');
        } else {
          void vscode.window.showErrorMessage(`Assistant Cards: ${err.message ?? 'sign-in failed.'}`, 'Sign In Again')
            .then((p) => { if (p) void vscode.commands.executeCommand('assistantCards.signIn'); });
        }
        return undefined;
      } finally {
        finished.abort();
      }
    },
  );
}

/** The code's notification: Copy and Open bring it back (the person may need the other one next). */
async function offerCode(userCode: string, uri: string, cancel: AbortController, finished: AbortSignal): Promise<void> {
  let opened = false;
  while (!cancel.signal.aborted && !finished.aborted) {
    const pick = await vscode.window.showInformationMessage(opened
      ? `Assistant Cards: sign in with the code ${userCode} on the page that opened. This finishes by itself once you allow it.`
      : `Assistant Cards: sign in with the code ${userCode}. Open the sign-in page and allow this editor there.`,
    'Copy', 'Open', 'Cancel');
    if (pick === undefined || finished.aborted) return; // dismissed: the sign-in still finishes by itself
    if (pick === 'Cancel') { cancel.abort(); return; }
    if (pick === 'Copy') await vscode.env.clipboard.writeText(userCode);
    if (pick === 'Open') {
      const safe = safeExternalUrl(uri);
      if (safe) opened = await vscode.env.openExternal(vscode.Uri.parse(safe, true));
    }
  }
}
