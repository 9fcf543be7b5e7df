// The card panel's HTML shell: strict CSP with a fresh nonce, no inline script or style, only our
// script and stylesheet. The card itself is rendered by dist/webview.js (lit-html text bindings).
// `#live` is the panel's one live region, outside what the script re-renders: it says the status
// (sent, undone, a problem...) and nothing else, so a pick never makes a screen reader re-read the card.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri, cardId: string): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'webview', 'main.css'));
  const csp = [
    "default-src 'none'", // l10n-ignore: not words for people
    `script-src 'nonce-${nonce}'`, // l10n-ignore: not words for people
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  // cardId is checked by the caller (req_ pattern) and only goes into a data attribute, escaped anyway.
  const safeId = cardId.replace(/[^A-Za-z0-9_-]/g, '');
  // The page's language is VS Code's display language (screen readers pick their voice by it).
  const lang = vscode.env.language.replace(/[^A-Za-z0-9-]/g, '') || 'en';
  const title = escapeHtml(vscode.l10n.t('Card'));
  const loading = escapeHtml(vscode.l10n.t('Loading the card…'));
  // l10n-ignore (next line): the page's markup; its words are the two above.
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${title}</title>
</head>
<body data-card-id="${safeId}">
<main id="root"><p class="muted">${loading}</p></main>
<div id="live" class="sr-only" role="status" aria-live="polite" aria-atomic="true"></div>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
