// The words of the code shared by the extension host and the card panel's webview. No `vscode`
// here: the host sets `vscode.l10n.t` as the translator at activation; the webview looks its words
// up in the bundle the host sends it (the same translations). `locale` is VS Code's display
// language, for dates and "how long ago" (Intl).
export type Translate = (message: string, ...args: (string | number)[]) => string;

/** `{0}`, `{1}`... replaced by the arguments, as vscode.l10n.t does. */
export function fill(message: string, args: readonly (string | number)[]): string {
  if (args.length === 0) return message;
  return message.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : m));
}

let translate: Translate = (message, ...args) => fill(message, args);
let locale: string | undefined;

export function t(message: string, ...args: (string | number)[]): string {
  return translate(message, ...args);
}

export function setTranslator(next: Translate): void {
  translate = next;
}

/** The webview's translator: the host's bundle (message -> translation), English when absent. */
export function bundleTranslator(bundle: Record<string, string> | undefined): Translate {
  return (message, ...args) => fill(bundle?.[message] ?? message, args);
}

export function setLocale(next: string | undefined): void {
  locale = next;
}

/** VS Code's display language (undefined: the runtime's default). */
export function displayLocale(): string | undefined {
  return locale;
}

/** "5 minutes ago" in the display language: one formatter per language (one per tree item was a third of a render). */
let relative: { locale: string | undefined; format: Intl.RelativeTimeFormat } | undefined;

export function relativeTimeFormat(): Intl.RelativeTimeFormat {
  if (!relative || relative.locale !== locale) relative = { locale, format: new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }) };
  return relative.format;
}
