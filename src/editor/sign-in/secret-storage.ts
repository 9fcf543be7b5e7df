// The client core's SecretStore over VS Code's SecretStorage. SecretStorage's onDidChange fires
// for changes made by other windows too, so a refresh-token rotation elsewhere is seen here.
import type * as vscode from 'vscode';
import type { SecretStore } from '../../sync';

const PREFIX = 'assistantCards.';

export function vscodeSecretStore(secrets: vscode.SecretStorage): SecretStore & { dispose(): void } {
  const listeners = new Set<(e: { key: string }) => void>();
  const sub = secrets.onDidChange((e) => {
    if (!e.key.startsWith(PREFIX)) return;
    const key = e.key.slice(PREFIX.length);
    for (const l of [...listeners]) l({ key });
  });
  return {
    get: async (key) => (await secrets.get(PREFIX + key)) ?? undefined,
    store: async (key, value) => { await secrets.store(PREFIX + key, value); },
    delete: async (key) => { await secrets.delete(PREFIX + key); },
    onDidChange: (listener) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    dispose: () => { sub.dispose(); listeners.clear(); },
  };
}
