// Just enough of the `vscode` module to build the cards tree in plain Node for the render bench.
// The tree provider's own code (getChildren, getTreeItem, its events) runs unchanged; the stub
// only stands in for the workbench objects it creates.
import Module from 'node:module';

type Listener<T> = (e: T) => unknown;

class EventEmitter<T> {
  private readonly listeners = new Set<Listener<T>>();
  readonly event = (l: Listener<T>) => {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string;
  iconPath?: unknown;
  contextValue?: string;
  command?: unknown;
  accessibilityInformation?: unknown;
  constructor(public label: string, public collapsibleState = 0) {}
}

class ThemeIcon {
  constructor(readonly id: string, readonly color?: unknown) {}
}
class ThemeColor {
  constructor(readonly id: string) {}
}

const noop = { dispose() {} };

export const vscodeStub = {
  EventEmitter,
  TreeItem,
  ThemeIcon,
  ThemeColor,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  // The palette's picks (test/editor-node/palette-answer.test.ts plays the person on them).
  QuickPickItemKind: { Separator: -1, Default: 0 },
  window: {
    createTreeView: () => ({
      badge: undefined as unknown,
      description: undefined as unknown,
      message: undefined as unknown,
      visible: false,
      onDidExpandElement: () => noop,
      onDidChangeVisibility: () => noop,
      reveal: async () => undefined,
      dispose() {},
    }),
  },
  commands: { executeCommand: async () => undefined },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  // What watching the identity file needs (test/editor-node/identity-watch.test.ts plays the watcher).
  RelativePattern: class { constructor(readonly base: unknown, readonly pattern: string) {} },
  Disposable: { from: (...all: { dispose(): unknown }[]) => ({ dispose: () => { for (const d of all) d.dispose(); } }) },
  // What a card panel's html and icon need (test/editor-node/card-panel.test.ts), and its links.
  Uri: { joinPath: (base: unknown, ...parts: string[]) => ({ base, path: parts.join('/') }), parse: (href: string) => ({ href, toString: () => href }), file: (fsPath: string) => ({ fsPath }) },
  env: { language: 'en', openExternal: async (_uri: unknown) => true },
  // No settings: every `get` gives undefined (the defaults).
  workspace: {
    getConfiguration: () => ({ get: () => undefined, inspect: () => undefined }),
    onDidChangeConfiguration: () => noop,
    createFileSystemWatcher: () => ({ onDidCreate: () => noop, onDidChange: () => noop, onDidDelete: () => noop, dispose() {} }),
  },
  // English, as VS Code without a language pack: {0} and the like filled in.
  l10n: { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])) },
};

/** Makes `require('vscode')` return the stub (call before loading any src/editor module). */
export function installVscodeStub(): void {
  const m = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
  const load = m._load;
  m._load = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return vscodeStub;
    return load.call(this, request, ...rest);
  };
}
