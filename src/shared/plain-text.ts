// Text from the service, made inert for the editor's own widgets. VS Code reads syntax in some of
// them: a notification turns `[label](command:…)` into a link that runs the command with its
// arguments; quick picks, input titles, the status bar and tree labels draw `$(icon)`. Every
// string from the service that reaches one of them goes through here. Pure: no `vscode`.
import { oneLine } from './format';

/**
 * Breaks the two syntaxes with a space: `](` becomes `] (` (no link, no command) and `$(` becomes
 * `$ (` (no icon). The text stays readable and says what the sender wrote; nothing in it is live.
 * Safe for our own sentences too (they never hold either pair), so whole messages pass through.
 */
export function inert(text: string): string {
  // Both pairs end in "(": most text holds none.
  if (!text.includes('(')) return text;
  return text.replace(/\]\s*\(/g, '] (').replace(/\$\(/g, '$ (');
}

/** One bounded line of untrusted text, inert: for labels, descriptions, titles and messages. */
export function plainText(text: string | undefined, max = 120): string {
  return inert(oneLine(text, max));
}

/** Several lines of already plain parts for a plain-string tooltip (never a MarkdownString). */
export function plainLines(lines: readonly (string | undefined)[]): string {
  return lines.filter((l): l is string => !!l).map((l) => inert(l)).join('\n');
}

/** A device code as shown (the sign-in's notification, the Cards view, the status bar): only the letters, digits and dashes a code is made of. */
export const shownCode = (userCode: string): string => userCode.replace(/[^A-Za-z0-9-]/g, '').slice(0, 40);
