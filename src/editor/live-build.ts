// One live set (live-parts.ts) built from the settings of this moment: the service address, the
// computer identity file, the network settings and, for a local sandbox, the process serving it.
// The client core and the live set's code load here, with import() on the first build, never in
// activate() (live-core.ts; docs/decisions.md "#39 item 4"): import only types of them here.
// extension.ts asks for a build whenever those settings may have changed.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { say } from './base/say';
import type { Log } from './base/log';
import { redact as redactFacts } from '../api/runtime';
import { createTransport } from '../api/http';
import type { ClientCore, SecretStore } from '../sync';
import type { LiveParts, LivePartsHost } from './live-parts';
import { DEMO_TERMINALS_ENV } from './assistants/demo-terminals';
import { networkKey, networkSettings } from './connection/network-settings';
import { forgetDeadSandbox, sandboxOf, whileSandboxLives, type SandboxProcess } from './connection/sandbox-alive';
import { machineFile, resolveBaseUrl, startingScope } from './connection/service-settings';
import { plainText } from '../shared/plain-text';

export interface LiveBuildHost {
  /** What each live set is handed; its `onState` also tells why no set was built. */
  parts: LivePartsHost;
  ctx: vscode.ExtensionContext;
  secrets: SecretStore;
  appVersion: string;
  /** The live set of this moment (a late sandbox's end tells only its own set's window). */
  live(): LiveParts | undefined;
  refreshState(): Promise<void>;
}

/** The settings a live set is built for, read once; `key` tells two apart. */
export interface Wanted {
  key: string;
  file: string;
  baseUrl: string | undefined;
  network: ReturnType<typeof networkSettings>;
  sandbox: SandboxProcess | undefined;
}

export class LiveBuilder {
  /** The demo terminals `npm start` asks for open once per extension host, with the first core. */
  private demoTerminalsAsked = false;
  /** Addresses whose sandbox was found gone in this window: not called again unless a live sandbox's file names them (#37). */
  private readonly goneSandboxes = new Set<string>();

  constructor(private readonly host: LiveBuildHost) {}

  private get log(): Log { return this.host.parts.log; }

  /** The settings of this moment; a live set built for the same `key` is kept. */
  wanted(): Wanted {
    const file = machineFile();
    const baseUrl = resolveBaseUrl(file);
    const network = networkSettings();
    // A sandbox's address is called only while the process its identity file names lives (#37);
    // a new sandbox at the same address (a new process) is a new live set.
    const sandbox = baseUrl ? sandboxOf(file, baseUrl) : undefined;
    const key = `${baseUrl ?? ''}|${file}|${fs.existsSync(file)}|${networkKey(network)}|${sandbox?.pid ?? ''}`;
    return { key, file, baseUrl, network, sandbox };
  }

  /** The live set for `w`; undefined (its state told) when there is nothing to call or no core could be made. */
  async build(w: Wanted): Promise<LiveParts | undefined> {
    const { key, file, baseUrl, network, sandbox } = w;
    const onState = this.host.parts.onState;
    if (!baseUrl || !fs.existsSync(file)) {
      this.log.info(baseUrl ? `not set up: no identity file at ${file}` : 'not set up: no service address and no identity file');
      // No client core: the views are empty already (the old live set let go of them); the welcome says why.
      onState({ kind: 'not-set-up', reason: 'missing' });
      return undefined;
    }
    if (!sandbox && this.goneSandboxes.has(baseUrl)) {
      // The setting still names a sandbox found gone, and no live sandbox's file vouches for the
      // address again: whatever listens there now is not called (#37).
      this.log.warn(`not calling ${baseUrl}: the local sandbox there has ended; start one again, or change assistantCards.baseUrl`);
      onState({ kind: 'offline', since: Date.now(), lastError: vscode.l10n.t('the local sandbox at {0} has stopped', plainText(baseUrl, 100)) });
      return undefined;
    }
    // The client core and its live set load here, on the first live set, never in activate() (live-core.ts).
    const { createClientCore, identityFileExposure, InsecureAddressError, LiveParts, openDemoTerminals } = await import('./live-core.js');
    const { ctx } = this.host;
    let core: ClientCore;
    try {
      core = createClientCore({
        baseUrl, secretStore: this.host.secrets, machineFile: file, transportOptions: network,
        ...(sandbox ? {
          transport: whileSandboxLives((beforeConnect) => createTransport({ ...network, beforeConnect }), sandbox, () => this.sandboxGone(file, baseUrl, sandbox, key),
            vscode.l10n.t('the local sandbox (process {0}) has ended; this window no longer calls its address', sandbox.pid)),
        } : {}),
        lockDir: ctx.globalStorageUri.fsPath,
        appVersion: this.host.appVersion,
        logger: {
          info: (m, facts) => this.log.info(withFacts(m, facts)),
          warn: (m, facts) => this.log.warn(withFacts(m, facts)),
          error: (m, facts) => this.log.error(withFacts(m, facts)),
        },
        scope: startingScope(),
      });
    } catch (e) {
      this.log.error(`client core: ${String(e)}`);
      // An http: address to another computer is the person's to fix: say so, not just "offline".
      if (e instanceof InsecureAddressError) void say.error(vscode.l10n.t('Assistant Cards: {0}', e.message));
      onState({ kind: 'offline', since: Date.now(), lastError: (e as Error).message });
      return undefined;
    }
    // The core logs it when it reads the file; the person is told here.
    void identityFileExposure(file).then((warning) => {
      if (warning) void say.warn(vscode.l10n.t('Assistant Cards: {0}', warning));
    });
    this.log.info(`service ${baseUrl}`);
    const live = new LiveParts(this.host.parts, core, key);
    if (!this.demoTerminalsAsked) {
      this.demoTerminalsAsked = true;
      openDemoTerminals(this.log, process.env[DEMO_TERMINALS_ENV], ctx);
    }
    return live;
  }

  /**
   * The sandbox serving this window's address is gone (another window's, `npm start`'s, or one
   * killed outright): nothing more was sent there; its address leaves the identity file (every
   * window watching it looks again) and the person is told why the cards went.
   */
  private sandboxGone(file: string, baseUrl: string, sandbox: SandboxProcess, key: string): void {
    this.goneSandboxes.add(baseUrl);
    const blanked = forgetDeadSandbox(file, baseUrl, sandbox);
    this.log.warn(`the local sandbox at ${baseUrl} (process ${sandbox.pid}) has ended: this window stopped calling it${blanked ? `; its address left ${file}` : ''}`);
    const live = this.host.live();
    if (live && live.key !== key) return; // a live set made since (a new sandbox) has nothing to tell
    void say.warn(vscode.l10n.t('Assistant Cards: the local sandbox at {0} has stopped. This window no longer calls that address.', plainText(baseUrl, 100)));
    void this.host.refreshState();
  }
}

/** The core's log line with its facts; log.ts redacts the whole line again. */
function withFacts(message: string, facts?: Record<string, unknown>): string {
  if (!facts || Object.keys(facts).length === 0) return message;
  try { return `${message} ${JSON.stringify(redactFacts(facts))}`; } catch { return message; }
}
