// The device-flow sign-in as the person sees it: a cancellable progress notification, and ONE
// notification with the code and a "Copy and Open" button (clipboard + the verification page),
// finishing by itself once the code is allowed.
import * as vscode from 'vscode';
import { say } from '../base/say';
import type { Me } from '../../api/schemas';
import type { ClientCore, DeviceProgress } from '../../sync';
import type { Log } from '../base/log';
import { plainText } from '../../shared/plain-text';
import { safeExternalUrl } from '../../shared/protocol';
import { EVERY_CARD_SCOPE } from '../../shared/grant-scopes';
import { scopeSetting } from '../cards/card-scope';

/** One interactive sign-in of a core at a time: its live set keeps the one under way (LiveParts.signIn). */
export async function signInInteractive(core: ClientCore, log: Log): Promise<Me | undefined> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Assistant Cards: signing in'), cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      const onProgress = (p: DeviceProgress) => {
        if (p.step === 'code') {
          // The code shows in one notification only (the one with Copy and Open below).
          progress.report({ message: vscode.l10n.t('waiting for the code to be allowed') });
          log.info('sign-in: device code issued, waiting for approval');
          void offerCopyAndOpen(p.userCode, p.verificationUri, p.verificationUriComplete, abort.signal);
        } else if (p.step === 'approved') {
          progress.report({ message: vscode.l10n.t('allowed, finishing…') });
        }
      };
      try {
        // Every computer's cards are asked for only when the person chose them (assistantCards.scope).
        const extraScopes = scopeSetting() === 'everywhere' ? [EVERY_CARD_SCOPE] as const : [];
        const me = await core.signIn({ onProgress, signal: abort.signal, extraScopes });
        log.info(`sign-in: signed in (grant ${me.grant.id})`);
        void say.info(vscode.l10n.t('Assistant Cards: signed in{0}.', me.grant.machine ? ` on ${me.grant.machine.name}` : ''));
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
          void say.error(vscode.l10n.t('Assistant Cards: {0}', err.message ?? 'sign-in failed.'), vscode.l10n.t('Sign In Again'))
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
 * The code, and the page that allows it. Without `verification_uri_complete` (optional in RFC
 * 8628) the message also names the plain page, where the person pastes the code Copy put there.
 */
async function offerCopyAndOpen(userCode: string, uri: string, complete: string | undefined, signal: AbortSignal): Promise<void> {
  const code = plainText(userCode, 40);
  const page = safeExternalUrl(complete ?? uri);
  const text = complete === undefined && page
    ? vscode.l10n.t('Assistant Cards: sign in with the code {0} at {1}.', code, plainText(page, 200))
    : vscode.l10n.t('Assistant Cards: sign in with the code {0}.', code);
  const pick = await say.info(text, vscode.l10n.t('Copy and Open'));
  if (pick !== vscode.l10n.t('Copy and Open') || signal.aborted) return;
  await vscode.env.clipboard.writeText(userCode);
  if (page) await vscode.env.openExternal(vscode.Uri.parse(page, true));
}
