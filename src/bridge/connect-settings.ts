// What Connect (of Claude Code, Codex, any CLI adapter) adds to the CLI's user settings, and how it is
// added and taken away again, on the file's text: the hook entries of Assistant Cards and nothing
// else, keeping every other byte (comments and formatting too: jsonc-parser edits only the spans
// it changes). Pure and without `vscode`, so it is tested in plain Node (test/bridge/).
//
// The CLIs read the same shape (Claude Code's `hooks`, which Codex and Gemini CLI follow):
//   {"hooks": {"<Event>": [{"matcher": "*", "hooks": [{"type": "command", "command": "…", "timeout": 600}]}]}}
// Ours are recognised by their whole command, exactly as `hookCommand` makes it (the launcher named
// HOOK_NAME, then `hook <cli>`, then maybe `--wait N`): a command that merely mentions the name
// (`tee -a /tmp/assistant-cards-hook.log`) is the person's (#52 F10).
import { homedir } from 'node:os';
import { applyEdits, findNodeAtLocation, format, modify, parse, parseTree, printParseErrorCode, type FormattingOptions, type JSONPath, type Node, type ParseError } from 'jsonc-parser';
import { ADAPTERS, CLIS, adapter, type Cli } from './clis/index';
import type { MatcherGroup } from './clis/adapter';
import { openCodePlugin, openCodePluginCommand } from './clis/opencode-plugin';

export { CLIS, type Cli };
// What Connect needs besides the planner, from this one module the editor loads on first use.
export { CLI_NAMES, adapter, isCli } from './clis/index';
export { readSettings, rewriteSettings, writeSettings } from './settings-file';

export { EVENT_TIMEOUT_S, WAIT_MARGIN_S, type HookHandler, type MatcherGroup } from './clis/adapter';
export { CODEX_SESSION_END_TIMEOUT_S } from './clis/codex';

/** What every hook command of ours names: how Disconnect (and a second Connect) knows them. */
export const HOOK_NAME = 'assistant-cards-hook';

/**
 * How long each CLI waits on its permission hook, in seconds: the person's answer on a card comes
 * back within it, or the CLI decides as it would without us (docs/decisions.md "#35: connecting a
 * CLI"); each adapter (src/bridge/clis/) says why its number.
 */
export const PERMISSION_TIMEOUT_S = Object.fromEntries(ADAPTERS.map((a) => [a.id, a.permissionTimeoutS])) as Record<Cli, number>;

/** The events each CLI runs our hook for (its adapter's list). */
export const EVENTS = Object.fromEntries(ADAPTERS.map((a) => [a.id, a.events])) as Record<Cli, readonly string[]>;

/** The user settings file a CLI reads its hooks from (its adapter says which). */
export function settingsFile(cli: Cli, env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  return adapter(cli).settingsFile(env, home);
}

/** A path as one word of the shell the CLI runs hooks with (sh -c; cmd.exe on Windows). */
export function shellQuote(p: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return `"${p.replace(/"/g, '')}"`; // a Windows path holds no `"`
  return /^[\w./:@%+=,-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

/** The command of our hooks: the launcher in `<bridgeHome>/bin`, then `hook <cli>`. */
export function hookCommand(launcher: string, cli: Cli, platform: NodeJS.Platform = process.platform): string {
  return `${shellQuote(launcher, platform)} hook ${cli}`;
}

/** The entries Connect adds, per event: one matcher group holding one handler of ours. */
export function entriesFor(cli: Cli, command: string): Record<string, MatcherGroup> {
  return adapter(cli).entriesFor(command);
}

/** Why a file's text cannot be edited safely: the file is then left as it is. */
import type { Plan, Refusal } from './settings-plan';
export type { Plan, Refusal };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether a hook command is one `hookCommand` makes: one shell word (bare, '…' or "…") whose last
 * path part is the launcher, then `hook <cli>`, then maybe `--wait <seconds>`; nothing else.
 */
export function isOurCommand(command: string): boolean {
  const m = /^('(?:[^']|'\\'')*'|"[^"]*"|[^\s'"]+) hook [a-z][a-z-]*(?: --wait \d+)?$/.exec(command);
  if (!m) return false;
  const word = m[1]!;
  const launcher = word.startsWith("'") ? word.slice(1, -1).replace(/'\\''/g, "'") : word.startsWith('"') ? word.slice(1, -1) : word;
  const base = launcher.split(/[\\/]/).pop() ?? '';
  return base === HOOK_NAME || base === `${HOOK_NAME}.cmd`;
}
// Copilot CLI's handlers name their command `bash`.
const isOurs = (h: unknown): boolean => isObject(h) && ((typeof h.command === 'string' && isOurCommand(h.command)) || (typeof h.bash === 'string' && isOurCommand(h.bash)));

/** Whether a whole hook file (Copilot CLI's layout) holds handlers and only ours. */
function wholeFileIsOurs(value: Record<string, unknown>): boolean {
  const handlers = Object.values(isObject(value.hooks) ? value.hooks : {}).flatMap((list) => (Array.isArray(list) ? list as unknown[] : []));
  return handlers.length > 0 && handlers.every(isOurs);
}

/** Connect of a CLI whose hooks are a whole file of ours: written new, or over an older one of ours. */
function planWhole(text: string | undefined, wanted: unknown, events: readonly string[]): Plan {
  const before = text ?? '';
  const after = `${JSON.stringify(wanted, null, 2)}\n`;
  if (before.trim() !== '') {
    const parsed = read(before);
    if (!parsed.ok) return parsed;
    if (!wholeFileIsOurs(parsed.value)) return { ok: false, refusal: { kind: 'unexpected', detail: 'the file holds hooks Assistant Cards did not write' } };
  }
  return { ok: true, before, after, changed: after !== before, events: after !== before ? [...events] : [] };
}

/** A plugin file of ours: its whole text for a hook command, and the command of a text that is ours as written. */
interface PluginFile { text(command: string): string; commandOf(text: string): string | undefined }

/** The plugin texts of the CLIs whose adapter says `plugin` (here, so the hook's bundle goes without them). */
const PLUGIN_FILES: Partial<Record<Cli, PluginFile>> = { opencode: { text: openCodePlugin, commandOf: openCodePluginCommand } };

/** The plugin Connect writes for `cli`: its adapter's `plugin` decides; this file only holds the text. */
function pluginOf(cli: Cli): PluginFile | undefined {
  if (!adapter(cli).plugin) return undefined;
  const plugin = PLUGIN_FILES[cli];
  if (!plugin) throw new Error(`${cli}: its adapter says it runs a plugin, and connect-settings.ts has no plugin text for it`);
  return plugin;
}

/** Whether a plugin file is ours exactly as written, running a hook command of ours. */
function pluginIsOurs(text: string, plugin: PluginFile): boolean {
  const command = plugin.commandOf(text);
  return command !== undefined && isOurCommand(command);
}

/** Connect of a CLI that runs a plugin of ours (OpenCode's): written new, or over an older one of ours. */
function planPlugin(text: string | undefined, plugin: PluginFile, command: string, events: readonly string[]): Plan {
  const before = text ?? '';
  const after = plugin.text(command);
  if (before.trim() !== '' && !pluginIsOurs(before, plugin)) {
    return { ok: false, refusal: { kind: 'unexpected', detail: 'the file is not the plugin Assistant Cards wrote (it was changed, or is another one)' } };
  }
  return { ok: true, before, after, changed: after !== before, events: after !== before ? [...events] : [] };
}

/** The first key that appears twice in one object of the text (the CLI reads one, an editor may show the other). */
function twiceKey(text: string): { key: string; path: string; lines: [number, number] } | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
  const walk = (node: Node | undefined, where: string): ReturnType<typeof twiceKey> => {
    if (!node) return undefined;
    if (node.type === 'object') {
      const seen = new Map<string, number>();
      for (const prop of node.children ?? []) {
        const keyNode = prop.children?.[0];
        const key = typeof keyNode?.value === 'string' ? keyNode.value : undefined;
        if (key === undefined) continue;
        const first = seen.get(key);
        if (first !== undefined) return { key, path: where ? `${where}.${key}` : key, lines: [lineOf(first), lineOf(prop.offset)] };
        seen.set(key, prop.offset);
      }
      for (const prop of node.children ?? []) {
        const key = prop.children?.[0]?.value;
        const found = walk(prop.children?.[1], where ? `${where}.${String(key)}` : String(key));
        if (found) return found;
      }
    } else if (node.type === 'array') {
      for (const [i, item] of (node.children ?? []).entries()) {
        const found = walk(item, `${where}[${i}]`);
        if (found) return found;
      }
    }
    return undefined;
  };
  return walk(root, '');
}

/** The text parsed, or why not (a syntax error, or a shape that is not settings). */
function read(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; refusal: Refusal } {
  if (text.trim() === '') return { ok: true, value: {} };
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const line = text.slice(0, first.offset).split('\n').length;
    return { ok: false, refusal: { kind: 'unparsable', detail: printParseErrorCode(first.error), line } };
  }
  if (!isObject(value)) return { ok: false, refusal: { kind: 'unexpected', detail: 'the file is not a JSON object' } };
  const twice = twiceKey(text);
  if (twice) return { ok: false, refusal: { kind: 'duplicate', detail: `"${twice.path}" appears twice (lines ${twice.lines[0]} and ${twice.lines[1]})`, line: twice.lines[1] } };
  if (value.hooks !== undefined && !isObject(value.hooks)) return { ok: false, refusal: { kind: 'unexpected', detail: '"hooks" is not an object' } };
  for (const [event, groups] of Object.entries(value.hooks ?? {})) {
    if (!Array.isArray(groups)) return { ok: false, refusal: { kind: 'unexpected', detail: `"hooks.${event}" is not a list` } };
  }
  return { ok: true, value };
}

/** The file's own indentation and line ends, so what is added looks like what is there. */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}

/**
 * `text` without the value at `p`: that span goes and nothing else moves (no reformatting). An
 * array's last item goes with the comma and spacing before it, the inverse of `insertAt`
 * (jsonc-parser's own removal keeps the character before `]`, which is wrong for `[a, b]`).
 */
function removeAt(text: string, p: JSONPath): string {
  const index = p[p.length - 1];
  const root = typeof index === 'number' ? parseTree(text) : undefined;
  const list = root && findNodeAtLocation(root, p.slice(0, -1));
  const items = list?.type === 'array' ? list.children ?? [] : [];
  const node = typeof index === 'number' ? items[index] : undefined;
  if (!list || !node || typeof index !== 'number') return applyEdits(text, modify(text, p, undefined, {}));
  const prev = items[index - 1];
  const next = items[index + 1];
  const [from, to] = items.length === 1 ? [list.offset + 1, list.offset + list.length - 1]
    : next ? [node.offset, next.offset]
      : prev ? [prev.offset + prev.length, node.offset + node.length] : [node.offset, node.offset + node.length];
  return text.slice(0, from) + text.slice(to);
}

/**
 * `text` with `value` added at `p`, laid out like the file (`fmt`) from where it goes in; the
 * person's text around it, even on the same line, is left as it was, so taking it out again
 * (`removeAt`) gives back the very same text.
 */
function insertAt(text: string, p: JSONPath, value: unknown, fmt: FormattingOptions, isArrayInsertion: boolean): string {
  const edits = modify(text, p, value, { isArrayInsertion });
  const [edit] = edits;
  if (edits.length !== 1 || !edit || edit.length !== 0) return applyEdits(text, modify(text, p, value, { isArrayInsertion, formattingOptions: fmt }));
  const added = applyEdits(text, edits);
  const end = edit.offset + edit.content.length;
  const layout = format(added, { offset: edit.offset, length: edit.content.length }, fmt)
    // Inside what was added, and a line break added just after it; never the person's own spacing.
    .filter((f) => f.offset >= edit.offset && f.offset + f.length <= end && (f.offset < end || f.length === 0));
  return applyEdits(added, layout);
}

/** `text` with the value at `p` replaced by `value`, laid out like the file. */
const replaceAt = (text: string, p: JSONPath, value: unknown, fmt: FormattingOptions): string =>
  applyEdits(text, modify(text, p, value, { formattingOptions: fmt }));

/** The value of a text this module made (it parses: only its own edits were applied). */
const readValue = (text: string): Record<string, unknown> => { const r = read(text); return r.ok ? r.value : {}; };

/** The groups of `event` as they are in `value`. */
const groupsOf = (value: Record<string, unknown>, event: string): unknown[] => {
  const hooks = value.hooks;
  const groups = isObject(hooks) ? hooks[event] : undefined;
  return Array.isArray(groups) ? groups : [];
};

/** Exactly our entry: one group whose only handler is ours, as `entriesFor` makes it. */
const sameEntry = (group: unknown, wanted: MatcherGroup): boolean => {
  if (!isObject(group) || !Array.isArray(group.hooks) || group.hooks.length !== 1) return false;
  const h: unknown = group.hooks[0];
  const w = wanted.hooks[0];
  return isObject(h) && !!w && h.type === w.type && h.command === w.command && h.timeout === w.timeout && group.matcher === wanted.matcher;
};

/**
 * The text with every handler of ours removed: a group left empty goes, then an event's list
 * left empty, then `hooks` left empty (only when our handlers emptied them: an empty list or
 * `hooks` with other events stays). `only` limits it to some events.
 */
function removeOurs(text: string, only?: ReadonlySet<string>): { text: string; removed: string[] } {
  let out = text;
  const removed = new Set<string>();
  const edit = (p: JSONPath) => { out = removeAt(out, p); };
  const parsed = read(out);
  if (!parsed.ok) return { text, removed: [] };
  const events = Object.keys(isObject(parsed.value.hooks) ? parsed.value.hooks : {});
  let emptied = false;
  for (const event of events) {
    if (only && !only.has(event)) continue;
    const groups = groupsOf(parsed.value, event);
    // From the end, so the indexes of what is still to remove stay true.
    for (let g = groups.length - 1; g >= 0; g--) {
      const group = groups[g];
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      const handlers = group.hooks as unknown[];
      const ours = handlers.map((h, i) => (isOurs(h) ? i : -1)).filter((i) => i >= 0);
      if (ours.length === 0) continue;
      removed.add(event);
      if (ours.length === handlers.length) edit(['hooks', event, g]);
      else for (const i of ours.reverse()) edit(['hooks', event, g, 'hooks', i]);
    }
    if (removed.has(event) && groups.every((group) => isObject(group) && Array.isArray(group.hooks) && (group.hooks as unknown[]).every(isOurs))) {
      edit(['hooks', event]);
      emptied = true;
    }
  }
  const after = read(out);
  if (emptied && after.ok && isObject(after.value.hooks) && Object.keys(after.value.hooks).length === 0) edit(['hooks']);
  return { text: out, removed: [...removed] };
}

/**
 * Connect: the text with our entries for `cli` added (an older entry of ours, say with another
 * command, is replaced). Connecting again when they are there changes nothing (`changed: false`).
 * `text` undefined: the file does not exist yet.
 */
export function planConnect(text: string | undefined, cli: Cli, command: string): Plan {
  const plugin = pluginOf(cli);
  if (plugin) return planPlugin(text, plugin, command, adapter(cli).events);
  const whole = adapter(cli).wholeFile?.(command);
  if (whole !== undefined) return planWhole(text, whole, adapter(cli).events);
  const before = text ?? '';
  const parsed = read(before);
  if (!parsed.ok) return parsed;
  const wanted = entriesFor(cli, command);
  // An event is already done when it holds our entry exactly, and no other handler of ours.
  const todo = Object.keys(wanted).filter((event) => {
    const groups = groupsOf(parsed.value, event);
    const ours = groups.flatMap((g) => (isObject(g) && Array.isArray(g.hooks) ? (g.hooks as unknown[]).filter(isOurs) : []));
    return !(ours.length === 1 && groups.some((g) => sameEntry(g, wanted[event] as MatcherGroup)));
  });
  if (todo.length === 0) return { ok: true, before, after: before, changed: false, events: [] };
  const fmt = formattingOf(before);
  // A new file (or one that holds just `{}`): written whole, laid out like the entries shown.
  if (/^\s*(\{\s*\})?\s*$/.test(before)) {
    const fresh = JSON.stringify({ ...parsed.value, hooks: Object.fromEntries(todo.map((e) => [e, [wanted[e]]])) }, null, 2);
    return { ok: true, before, after: `${fresh}\n`, changed: true, events: todo };
  }
  let out = removeOurs(before, new Set(todo)).text;
  const now = read(out);
  if (!now.ok) return now;
  const hooks = now.value.hooks;
  const ours = (events: string[]) => Object.fromEntries(events.map((e) => [e, [wanted[e]]]));
  if (!isObject(hooks)) out = insertAt(out, ['hooks'], ours(todo), fmt, false);
  // An empty container is replaced whole (an insertion into `{}` or `[]` has no layout to follow).
  else if (Object.keys(hooks).length === 0) out = replaceAt(out, ['hooks'], ours(todo), fmt);
  else {
    for (const event of todo) {
      const groups = hooks[event];
      if (!Array.isArray(groups)) out = insertAt(out, ['hooks', event], [wanted[event]], fmt, false);
      else if (groups.length === 0) out = replaceAt(out, ['hooks', event], [wanted[event]], fmt);
      // Indexes of the groups before this one are unchanged by the edits of other events.
      else out = insertAt(out, ['hooks', event, groupsOf(readValue(out), event).length], wanted[event], fmt, true);
    }
  }
  return { ok: true, before, after: out, changed: out !== before, events: todo };
}

/**
 * Disconnect: the text without any hook of ours (of any CLI's command), everything else kept. For
 * a CLI whose hooks are a whole file of ours (`cli` given), the file goes when it holds only ours.
 */
export function planDisconnect(text: string | undefined, cli?: Cli): Plan {
  const before = text ?? '';
  const plugin = cli ? pluginOf(cli) : undefined;
  if (cli && plugin) {
    if (text === undefined || !pluginIsOurs(text, plugin)) return { ok: true, before, after: before, changed: false, events: [] };
    return { ok: true, before, after: '', changed: true, events: [...adapter(cli).events], remove: true };
  }
  const parsed = read(before);
  if (!parsed.ok) return parsed;
  if (cli && adapter(cli).wholeFile) {
    if (text === undefined || !wholeFileIsOurs(parsed.value)) return { ok: true, before, after: before, changed: false, events: [] };
    return { ok: true, before, after: '', changed: true, events: Object.keys(parsed.value.hooks as object), remove: true };
  }
  const { text: after, removed } = removeOurs(before);
  return { ok: true, before, after, changed: after !== before, events: removed };
}

/** Whether a settings file's text holds a hook of ours (of any CLI): that CLI is connected. */
export function holdsOurs(text: string | undefined, cli?: Cli): boolean {
  const plan = planDisconnect(text, cli);
  return plan.ok && plan.changed;
}

/** What Connect adds, as the JSON text shown to the person before they accept. */
export function entriesText(cli: Cli, command: string): string {
  const plugin = pluginOf(cli);
  if (plugin) return plugin.text(command);
  return JSON.stringify({ hooks: Object.fromEntries(Object.entries(entriesFor(cli, command)).map(([e, g]) => [e, [g]])) }, null, 2);
}

