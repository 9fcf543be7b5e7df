// createClientCore: everything the editor needs from the client core, behind one object.
import type { Clock, Logger, Timers } from '../api/runtime';
import type { Scope } from '../api/schemas';
import type { SecretStore } from '../auth/secret-store';
import type { ClientCore } from './contract';

export interface ClientCoreOptions {
  /** `{base_url}`, no trailing slash (setting assistantCards.baseUrl). */
  baseUrl: string;
  /** Where the DPoP key and tokens live (vscode SecretStorage in the editor, a file in tests). */
  secretStore: SecretStore;
  /** Computer identity file; default per DESIGN (~/.config/assistant-cards/machine.json, %APPDATA% on Windows). */
  machineFile?: string;
  /** Shared folder for the cross-window locks (refresh lock, feed-owner lease): the global storage dir. */
  lockDir: string;
  clock?: Clock;
  timers?: Timers;
  logger?: Logger;
  clientId?: string; // default 'assistant-cards-vscode'
  scopes?: readonly Scope[]; // default: every scope but cards:read:all
  appVersion?: string; // for User-Agent
  /** Explicit proxy (an `http.proxy`-style setting); otherwise HTTP(S)_PROXY / NO_PROXY from the environment. */
  proxyUrl?: string;
  /** Initial scope of the card model; default workspace with no assistants until the editor tells. */
  scope?: { kind: 'machine' } | { kind: 'workspace'; assistantIds: readonly string[] };
  /** Distinguishes windows in the feed-owner lease; default a random id. */
  instanceId?: string;
}

export function createClientCore(_options: ClientCoreOptions): ClientCore {
  throw new Error('createClientCore: being implemented (issue 4)');
}
