// Opening a web address from a card or a notice. An address on this computer (localhost, 127.x,
// [::1]) opens at once only when the service itself is on loopback; otherwise the person confirms
// the whole address first (shared/link-guard.ts says why: a remote window forwards that port).
import * as vscode from 'vscode';
import type { Log } from '../base/log';
import { say } from '../base/say';
import { machineFile, resolveBaseUrl } from '../connection/service-settings';
import { linkDecision } from '../../shared/link-guard';
import { shownAddress } from '../../shared/hidden-chars';
import { safeExternalUrl } from '../../shared/protocol';
import type { ClientCore } from '../../sync';

/**
 * `url`: already checked by safeExternalUrl. `question`: what the confirm asks (a card's link by
 * default; the sign-in's page names itself).
 */
export async function openCardLink(url: string, log: Log | undefined, question = vscode.l10n.t('Assistant Cards: this card links to an address on this computer. Open it?')): Promise<void> {
  if (linkDecision(url, resolveBaseUrl(machineFile())) === 'confirm') {
    const open = vscode.l10n.t('Open');
    const ok = await say.confirm(
      question,
      vscode.l10n.t('{0}\n\nIn a remote window this opens that port of the remote computer in your browser. Open it only if you expected this address.', shownAddress(url)),
      open);
    if (!ok) {
      log?.info(`a link to this computer was not opened: ${url}`);
      return;
    }
  }
  await vscode.env.openExternal(vscode.Uri.parse(url, true));
}

/**
 * "Open in Browser", pressed: the card's one-time link into its page in the service, where the
 * person may answer it; its plain url (read-only there) when the service gives none (#35). Said
 * when there is no address to open. The palette's and a notification's button alike.
 */
export async function openCardPage(core: Pick<ClientCore, 'pageUrl'>, card: { id: string; url?: string | undefined }, log: Log | undefined): Promise<void> {
  const url = await core.pageUrl(card);
  const safe = url ? safeExternalUrl(url) : undefined;
  if (!safe) { void say.warn(vscode.l10n.t('Assistant Cards: this card has no web address to open.')); return; }
  await openCardLink(safe, log);
}
