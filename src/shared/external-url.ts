// Which links may leave the editor. Apart from protocol.ts (which re-exports it) so that the
// editor's commands and sign-in can ask it without loading the webview protocol's schemas (zod).

/** Only http(s) links leave the editor; everything else (javascript:, data:, file:, ...) is refused. */
export function safeExternalUrl(raw: string): string | undefined {
  let u: URL;
  try { u = new URL(raw); } catch { return undefined; }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
  if (u.username || u.password) return undefined;
  return u.toString();
}
