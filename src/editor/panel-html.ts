// The card panel's HTML shell: strict CSP with a fresh nonce, no inline script, only our script
// and stylesheet. The card itself is rendered by dist/webview.js with textContent only.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri, cardId: string): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'webview', 'main.css'));
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  // cardId is checked by the caller (req_ pattern) and only goes into a data attribute, escaped anyway.
  const safeId = cardId.replace(/[^A-Za-z0-9_-]/g, '');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>Card</title>
</head>
<body data-card-id="${safeId}">
<main id="root" aria-live="polite"><p class="muted">Loading the card…</p></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
