// The device-flow sign-in as the person sees it: one cancellable progress notification that
// carries the code and a "Copy and Open" link (clipboard + the verification page), and closes by
// itself when the flow ends (allowed, cancelled or failed). The Cards view's welcome and the
// status bar carry the code and Copy and Open too.
import * as vscode from 'vscode';
import { say } from '../base/say';
import type { Me } from '../../api/schemas';
import type { ClientCore, ConnectionState, DeviceProgress } from '../../sync';
import type { Log } from '../base/log';
import { safeExternalUrl } from '../../shared/protocol';
import { EVERY_CARD_SCOPE } from '../../shared/grant-scopes';
import { scopeSetting } from '../cards/card-scope';
import { shownCode } from '../../shared/plain-text';
import { openCardLink } from '../panel/open-link';

/**
 * One interactive sign-in of a core at a time: its live set keeps the one under way
 * (LiveParts.signIn) and its `abort` (the welcome view's Cancel). The code lives in the progress
 * notification, which ends with the flow: nothing about the code stays up once signed in.
 */
export async function signInInteractive(core: ClientCore, log: Log, abort: AbortController): Promise<Me | undefined> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Assistant Cards: signing in'), cancellable: true },
    async (progress, token) => {
      const sub = token.onCancellationRequested(() => abort.abort());
      const onProgress = (p: DeviceProgress) => {
        if (p.step === 'code') {
          // The link runs our command (notifications render [label](command:…)); the code is
          // reduced to the characters a device code has (RFC 8628), so it cannot be a link itself.
          progress.report({ message: vscode.l10n.t('your code is {0}. [Copy and Open](command:assistantCards.copySignInCode) the sign-in page and allow it there.', shownCode(p.userCode)) });
          log.info('sign-in: device code issued, waiting for approval');
        } else if (p.step === 'approved') {
          progress.report({ message: vscode.l10n.t('allowed, finishing…') });
        }
      };
      try {
        // Every computer's cards are asked for only when the person chose them (assistantCards.scope).
        const extraScopes = scopeSetting() === 'everywhere' ? [EVERY_CARD_SCOPE] as const : [];
        const me = await core.signIn({ onProgress, signal: abort.signal, extraScopes });
        log.info(`sign-in: signed in (grant ${me.grant.id})`);
        void say.info(me.grant.machine
          ? vscode.l10n.t('Assistant Cards: signed in on {0}.', me.grant.machine.name)
          : vscode.l10n.t('Assistant Cards: signed in.'));
        return me;
      } catch (e) {
        const err = e as { kind?: string; reason?: string; message?: string; whatToDo?: string };
        if (err.kind === 'device-flow' && err.reason === 'cancelled') { log.info('sign-in: cancelled'); return undefined; }
        log.warn(`sign-in failed: ${err.message ?? String(e)}`);
        if (err.kind === 'not-set-up') {
          const pick = await say.error(
            vscode.l10n.t('Assistant Cards: this computer is not set up. {0}', err.whatToDo ?? ''), vscode.l10n.t('Start Local Sandbox'), vscode.l10n.t('Show Log'));
          if (pick === vscode.l10n.t('Start Local Sandbox')) void vscode.commands.executeCommand('assistantCards.startSandbox');
          if (pick === vscode.l10n.t('Show Log')) log.show();
        } else if (err.kind === 'network') {
          void say.error(vscode.l10n.t('Assistant Cards: the service cannot be reached. Check assistantCards.baseUrl and try again.'));
        } else {
          void say.error(err.message ? vscode.l10n.t('Assistant Cards: {0}', err.message) : vscode.l10n.t('Assistant Cards: sign-in failed.'), vscode.l10n.t('Sign In Again'))
            .then((p) => { if (p) void vscode.commands.executeCommand('assistantCards.signIn'); });
        }
        return undefined;
      } finally {
        sub.dispose();
      }
    },
  );
}

/**
 * Copy and Open: the code to the clipboard and the page that allows it (the complete address
 * when the service gave one, else the plain page, where the person pastes the code). Nothing
 * when no sign-in is under way.
 */
export async function copyCodeAndOpen(state: ConnectionState): Promise<void> {
  if (state.kind !== 'signing-in') return;
  await vscode.env.clipboard.writeText(state.userCode);
  const page = safeExternalUrl(state.verificationUriComplete ?? state.verificationUri);
  // Through the links' guard (#37): a sign-in page at another local address is confirmed first.
  if (page) await openCardLink(page, undefined, vscode.l10n.t('Assistant Cards: the sign-in page is at an address on this computer other than the service. Open it?'));
}
