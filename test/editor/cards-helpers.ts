// The host world: the extension's API, the kit's wait, and a sandbox (a process) wired to this
// window (this computer set up by the kit's setUpComputer + baseUrl + machine scope), signed in
// through the real device flow.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { App, ExtensionApi } from '../../src/editor/extension';
import { driver, driverAvailable } from './helpers/driver';
import { testEnv } from './helpers/env';
import { startSandboxProcess, type RunningSandbox } from './helpers/sandbox';
import { setUpComputer } from '../kit/computer';
import { shortHold } from './helpers/hold';
import { until as kitUntil } from '../kit/until';

/**
 * The kit's wait (a state, named, with a bound); when it runs out under code-server, the failure
 * also names a screenshot of the workbench at that moment (artifacts/timeout-*.png).
 */
export const until = (async (...args: Parameters<typeof kitUntil>) => {
  try {
    return await (kitUntil as (...a: unknown[]) => Promise<unknown>)(...args);
  } catch (e) {
    if (driverAvailable() && e instanceof Error && e.message.startsWith('timed out waiting for')) {
      const what = typeof args[0] === 'string' ? args[0] : 'a probe';
      const shot = await driver.screenshot(`timeout-${new Date().toISOString().replace(/[:.]/g, '-')}-${what.replace(/\W+/g, '-').slice(0, 50)}`).catch(() => undefined);
      if (shot) e.message += `; screenshot ${shot.path}`;
    }
    throw e;
  }
}) as typeof kitUntil;

export const EXTENSION_ID = 'assistant-cards.assistant-cards';

export async function theApp(): Promise<App> {
  const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  assert.ok(ext, 'extension loaded');
  const api = await ext.activate();
  assert.ok(api?.app, 'the extension returns its app for tests');
  return api.app;
}

/**
 * This computer set up for a service that is not there (as the runner leaves it at start): a fresh
 * identity file, marked as a sandbox's, at an address where nothing listens. Whatever tests ran
 * before (a stopped sandbox takes its address out of its file), the extension is signed out.
 */
export async function signedOutStart(): Promise<App> {
  const app = await theApp();
  const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  // Whole or not at all (a new file renamed over the old): a read of it on the thread pool while
  // it is written never sees it empty (a busy CI run's alone window showed "not set up" here).
  const next = `${testEnv.machineFile}.${process.pid}.tmp`;
  fs.writeFileSync(next, JSON.stringify({
    id: `mch_test${crypto.randomBytes(6).toString('hex')}`, name: 'host-test computer', baseUrl: 'http://127.0.0.1:9',
    privateJwk: privateKey.export({ format: 'jwk' }), madeBy: 'sandbox',
  }, null, 2), { mode: 0o600 });
  fs.renameSync(next, testEnv.machineFile);
  await app.refreshState();
  // The new core's start ended: signed-out is also a new core's first state, before it reads the file.
  await app.live?.started;
  await until('signed out', () => app.live?.core.state.kind === 'signed-out' || undefined, 30_000);
  return app;
}

export interface World {
  sb: RunningSandbox;
  app: App;
  machineId: string;
  assistantId: string;
  agentId: string;
}

/** A sandbox, this computer set up for it, baseUrl pointed at it, scope `machine`. Not signed in yet. */
export async function wire(args: string[] = []): Promise<World> {
  const app = await theApp();
  const sb = await startSandboxProcess(args);
  const { machine, assistants: [asst] } = await setUpComputer((m, p, b) => sb.control(m, p, b), {
    name: 'host-test computer', writeTo: testEnv.machineFile, assistants: [{ name: 'Claude', app: 'claude-code' }],
  });
  const cfg = vscode.workspace.getConfiguration('assistantCards');
  await cfg.update('scope', 'machine', vscode.ConfigurationTarget.Global);
  await cfg.update('baseUrl', sb.url, vscode.ConfigurationTarget.Global);
  await app.refreshState();
  await until('a client core for the sandbox', () => app.live?.key.startsWith(`${sb.url}|`));
  return { sb, app, machineId: machine.id, assistantId: asst!.id, agentId: asst!.agentId };
}

/**
 * Each test sets up what it needs, so any one runs alone (`--grep`): a test of signing in starts
 * signed out, every other test starts signed in, whatever ran before it in its file.
 */
export async function signInStateFor(w: World, title: string | undefined, signInTest: RegExp): Promise<void> {
  const kind = w.app.live?.core.state.kind;
  if (signInTest.test(title ?? '')) {
    if (kind === 'online' || kind === 'offline') await w.app.signOut();
  } else if (kind !== 'online') {
    await signInApproved(w);
  }
}

/** The sign-in under way (its device code), once the core has one. */
export async function signingIn(w: World) {
  return until('a device code', () => {
    const s = w.app.live?.core.state;
    return s?.kind === 'signing-in' ? s : undefined;
  });
}

/**
 * Signs in through the device flow, allowing the code on the sandbox's control surface; the person
 * allows `scopes` (all asked for when absent).
 */
export async function signInApproved(w: World, scopes?: string[]): Promise<void> {
  const pending = vscode.commands.executeCommand('assistantCards.signIn');
  const state = await signingIn(w);
  await w.sb.control('POST', '/_sandbox/device/approve', { user_code: state.userCode, ...(scopes ? { scopes } : {}) });
  await until('signed in', () => w.app.live?.core.state.kind === 'online');
  await pending;
  // Headless chromium never reports the window focused; a person at this window would focus it,
  // which makes this window the change feed's owner (long-poll) instead of a slow reader.
  w.app.live!.core.feed.setFocused(true);
}

export async function unwire(w: World | undefined): Promise<void> {
  if (!w) return;
  await w.app.signOut().catch(() => undefined);
  for (const p of w.app.panels.all()) p.dispose();
  const cfg = vscode.workspace.getConfiguration('assistantCards');
  await cfg.update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
  await cfg.update('scope', undefined, vscode.ConfigurationTarget.Global);
  await w.sb.close();
  await w.app.refreshState();
}

export interface NewCard {
  kind: string;
  title: string;
  [k: string]: unknown;
}

export async function newCard(w: World, card: NewCard, agentId = w.agentId): Promise<{ id: string; version: number }> {
  return w.sb.control<{ id: string; version: number }>('POST', '/_sandbox/cards', { agentId, ...card });
}

export async function sandboxCard(w: World, id: string): Promise<{ status: string; version: number; turn: string; until?: string }> {
  return w.sb.control('GET', `/_sandbox/cards/${id}`);
}

export async function heard(w: World, id: string): Promise<{ type: string; at: string; body: Record<string, unknown> }[]> {
  return (await w.sb.control<{ heard: { type: string; at: string; body: Record<string, unknown> }[] }>('GET', `/_sandbox/cards/${id}/heard`)).heard;
}

/** The person is at this window: it has focus, as the workbench tells extensions (vscode.window.state). */
export async function atThisWindow(): Promise<void> {
  assert.ok(await driver.windowFocus(true), 'the page has focus');
  await until('the window focused', () => vscode.window.state.focused || undefined);
}

/**
 * Where a real CLI in a terminal of this window asks: a sandbox, signed in, in the default scope
 * (a card counts here once its session is matched to a terminal of this window), answers held
 * short, and this window focused, since a card is told in the window the person is at (an earlier
 * test may have left it unfocused). A failed set-up leaves no sandbox behind.
 */
export async function wireForCliTerminal(): Promise<World> {
  const w = await wire();
  try {
    await signInApproved(w);
    await vscode.workspace.getConfiguration('assistantCards').update('scope', undefined, vscode.ConfigurationTarget.Global);
    await shortHold(w.sb);
    await atThisWindow();
    return w;
  } catch (e) {
    await unwire(w);
    throw e;
  }
}

/** The person left this window: focus gone, as after a click elsewhere. */
export async function awayFromThisWindow(): Promise<void> {
  await driver.windowFocus(false);
  await until('the window not focused', () => !vscode.window.state.focused || undefined);
}
