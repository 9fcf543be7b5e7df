// Settings a folder must not widen (#37). A folder's `.vscode/settings.json` comes with whatever
// is opened: a cloned repository can hold `"assistantCards.scope": "everywhere"` (the next sign-in
// would ask to read every card of every computer) or `"assistantCards.notify": "off"` (blocking
// cards would wait in silence), and VS Code applies a folder's value over the person's own, in
// Restricted Mode too. So these are decided from the person's own value (user settings, or the
// default); a folder's value counts only where it is the safer one. Pure: no `vscode`.

/** What `WorkspaceConfiguration.inspect` tells of a setting (the parts read here). */
export interface Inspected {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The value to act on. `order` lists the setting's values safest first; the person's own value
 * (or the default, or `order`'s last when neither is known) is the widest a folder can reach. A
 * folder's value applies only when it is safer (a narrower scope, more notifications); anything
 * not in `order` is ignored.
 */
export function ownValue<T extends string>(inspected: Inspected | undefined, order: readonly T[], fallback: T): T {
  const known = (v: unknown): v is T => order.includes(v as T);
  const own = known(inspected?.globalValue) ? inspected.globalValue : known(inspected?.defaultValue) ? inspected.defaultValue : fallback;
  let value = own;
  for (const folder of [inspected?.workspaceValue, inspected?.workspaceFolderValue]) {
    if (known(folder) && order.indexOf(folder) < order.indexOf(value)) value = folder;
  }
  return value;
}

/** A folder's value the person's own overrules, for the log: undefined when none is set or it is honoured. */
export function overruled(inspected: Inspected | undefined, value: string): string | undefined {
  const folder = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
  return folder !== undefined && folder !== value ? String(folder) : undefined;
}

/** `assistantCards.scope`, narrowest first: a folder may narrow it, never widen it. */
export const SCOPE_ORDER = ['workspace', 'machine', 'everywhere'] as const; // l10n-ignore
/** `assistantCards.notify`, loudest first: a folder may make it louder, never quieter. */
export const NOTIFY_ORDER = ['all', 'blocking', 'off'] as const; // l10n-ignore
