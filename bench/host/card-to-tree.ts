// Bench, inside the extension host (code-server), run by scripts/bench.mjs through
// scripts/host-test.mjs with its own index (never part of `npm test`). No assertion on time:
// it only measures and writes the figures to ASSISTANT_CARDS_TEST_BENCH_OUT.
//  - cardToTree: a card made on the sandbox (from just before POST /_sandbox/cards) until its item
//    is among the tree's children of "Waiting on you" in this extension host, the window the feed
//    owner (as when the person is at this window). Two runs:
//    paced: N cards (default 50) 22 s apart, the pace the waits limit lets a live feed keep (6
//      waits a minute, the client spends half: 3 changes a minute each end a held long-poll);
//    burst: M cards (default 20) 300 ms apart, faster than any feed within the waits limit can
//      follow by long-poll, so after the waits share the client reads the feed without waiting,
//      every 250 ms while changes keep coming (feed-loop.ts BURST_POLL_MS).
//  - permissionToTree: each CLI's permission hook run as the CLI runs it (Connect's launcher by
//    `sh -c`, on the bundled dist/bridge.js, with the hook host on Linux; the CLI's own event on
//    stdin, test/kit/cli-permission-events.ts) until its
//    approval card is in the tree; N prompts per CLI, one CLI after the other (#54: per CLI, and all together);
//    holdEndToDecision: from the end of that answer's hold (its undoUntil) until the hook process
//    has printed the decision and exited, which is when the CLI reads it. Paced like cardToTree.
//  - activate: the extension's activate() once more in this host, on a fresh load of the bundle,
//    after the running instance's subscriptions were disposed (so its ids are free again).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/editor/extension';
import type { Node } from '../../src/editor/cards/cards-tree';
import { binDirOf, installHook } from '../../src/bridge/install';
import { EXTENSION_ID, newCard, signInApproved, unwire, until, wire, type World } from '../../test/editor/cards-helpers';
import { testEnv } from '../../test/editor/helpers/env';
import { CLI_PERMISSION_ROWS, type CliPermissionRow } from '../../test/kit/cli-permission-events';

const CARDS = Number(testEnv.get('ASSISTANT_CARDS_BENCH_CARDS') ?? 50);
const GAP_MS = Number(testEnv.get('ASSISTANT_CARDS_BENCH_GAP_MS') ?? 22_000);
const BURST_CARDS = Number(testEnv.get('ASSISTANT_CARDS_BENCH_BURST_CARDS') ?? 20);
const BURST_GAP_MS = 300;
const PERMISSIONS = Number(testEnv.get('ASSISTANT_CARDS_BENCH_PERMISSIONS') ?? 20);
/** `bench.mjs --only burst`: the burst alone (after its quiet minute), no paced run. */
const BURST_ONLY = testEnv.get('ASSISTANT_CARDS_BENCH_BURST_ONLY') === '1';
/** `bench.mjs --only permission`: the permission prompts alone (permissionToTree, holdEndToDecision, readsPerAnswer, callsPerPrompt). */
const PERMISSION_ONLY = testEnv.get('ASSISTANT_CARDS_BENCH_PERMISSION_ONLY') === '1';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('bench (extension host)', function () {
  this.timeout(30 * 60_000);
  const out: Record<string, unknown> = {};
  let w: World | undefined;

  after(() => {
    const file = testEnv.get('ASSISTANT_CARDS_TEST_BENCH_OUT');
    if (file) fs.writeFileSync(file, JSON.stringify(out, null, 2));
  });

  it('card made on the sandbox -> tree item in the host', async () => {
    w = await wire();
    await signInApproved(w);
    const live = w.app.live!;
    live.core.feed.setFocused(true); // the person is at this window: it holds the long-poll
    await until('feed owner', () => live.core.feed.isOwner());
    const pending = (live.tree.getChildren() as Node[]).find((n) => n.kind === 'group' && n.group === 'pending');
    const inTree = (id: string) => {
      const group = pending ?? (live.tree.getChildren() as Node[]).find((n) => n.kind === 'group' && n.group === 'pending');
      return !!group && live.tree.getChildren(group).some((n) => n.kind === 'card' && n.id === id);
    };
    const measure = async (cards: number, gapMs: number, label: string) => {
      const samples: number[] = [];
      for (let i = 0; i < cards; i++) {
        const t0 = performance.now();
        const card = await newCard(w!, { kind: 'choice', title: `Bench ${label} card ${i}`, options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }] });
        // Checked on every tree change event and every 2 ms, whichever comes first.
        await new Promise<void>((resolve, reject) => {
          const check = () => {
            if (!inTree(card.id)) return false;
            sub.dispose();
            clearInterval(timer);
            clearTimeout(limit);
            resolve();
            return true;
          };
          const sub = live.tree.onDidChangeTreeData(() => void check());
          const timer = setInterval(check, 2);
          const limit = setTimeout(() => { sub.dispose(); clearInterval(timer); reject(new Error(`${label} card ${i} not in the tree within 120 s`)); }, 120_000);
          check();
        });
        samples.push(performance.now() - t0);
        await sleep(gapMs);
      }
      const sorted = [...samples].sort((a, b) => a - b);
      const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
      return { cards, gapMs, p50Ms: pct(50), p95Ms: pct(95), maxMs: sorted.at(-1), samplesMs: samples.map((s) => Math.round(s)) };
    };
    if (PERMISSION_ONLY) {
      Object.assign(out, await measurePermissions(w, inTree));
      await unwire(w);
      w = undefined;
      return;
    }
    if (!BURST_ONLY) out.cardToTree = await measure(CARDS, GAP_MS, 'paced');
    if (!BURST_ONLY && PERMISSIONS > 0) Object.assign(out, await measurePermissions(w, inTree));
    // A minute without changes so the burst starts with the waits share of a quiet window.
    await sleep(GAP_MS > 0 ? 60_000 : 0);
    out.cardToTreeBurst = await measure(BURST_CARDS, BURST_GAP_MS, 'burst');
    await unwire(w);
    w = undefined;
  });

  /**
   * The hook as the CLI runs it: the launcher Connect installs, by `sh -c`, which runs the event in
   * the hook host when one runs (Linux; the run's first event starts it) or in `bridge.js hook`.
   * Resolves with what it printed once it exits, and when.
   */
  function runHook(row: CliPermissionRow, launcher: string, command: string): { done: Promise<{ stdout: string; exitedAt: number }> } {
    const child = spawn('/bin/sh', ['-c', `'${launcher}' hook ${row.cli} --wait 120`], {
      // The sandbox process announces itself in its --work folder, the identity file's.
      env: { ...process.env, ASSISTANT_CARDS_HOME: path.dirname(testEnv.machineFile) },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stdin.end(JSON.stringify(row.event({ sessionId: `bench-session-${row.cli}`, cwd: '/bench', command })));
    return { done: new Promise((resolve) => child.on('exit', () => resolve({ stdout, exitedAt: performance.now() }))) };
  }

  async function measurePermissions(w: World, inTree: (id: string) => boolean) {
    const core = w.app.live!.core;
    const toTree: number[] = [];
    const toDecision: number[] = [];
    // What each prompt cost, counted by the sandbox (GET /_sandbox/received): the bridge's calls
    // to /_ask, and the extension's reads of the card (by id, and lists, which carry it too), from
    // the hook's start until the next prompt (the card's close and its read included).
    const calls: number[] = [];
    const reads: number[] = [];
    // The periodic full read (every 10 minutes, prompts or not: FULL_READ_MS) reads every list; a
    // prompt's window it falls in has its list reads given apart, under `periodicFullRead`.
    const periodic = { prompts: [] as number[], listReads: [] as number[] };
    const received = async () => (await w.sb.control<{ received: { method: string; url: string; at: string }[] }>('GET', '/_sandbox/received')).received;
    const count = async (from: number, id: string, periodicDuring: boolean) => {
      const got = (await received()).filter((r) => Date.parse(r.at) >= from);
      calls.push(got.filter((r) => r.url.startsWith('/_ask/')).length);
      const byId = got.filter((r) => r.method === 'GET' && r.url.split('?')[0] === `/v1/cards/${id}`).length;
      const lists = got.filter((r) => r.method === 'GET' && r.url.split('?')[0] === '/v1/cards').length;
      if (periodicDuring) {
        periodic.prompts.push(reads.length);
        periodic.listReads.push(lists);
      }
      reads.push(byId + (periodicDuring ? 0 : lists));
    };
    const byCli: Record<string, number[]> = {};
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const { launcher } = await installHook({
      binDir: binDirOf(path.dirname(testEnv.machineFile)), runtime: process.execPath, version: 'bench', platform: process.platform,
      bridgeSource: path.join(ext.extensionPath, 'dist', 'bridge.js'),
    });
    for (const row of CLI_PERMISSION_ROWS) for (let i = 0; i < PERMISSIONS; i++) {
      const from = Date.now();
      const periodicBefore = core.periodicFullReads;
      const before = new Set(core.cards.list('pending').map((c) => c.id));
      const t0 = performance.now();
      const hook = runHook(row, launcher, `echo bench ${row.cli} ${i}`);
      const id = await until(`permission card ${i} in the tree`, () => core.cards.list('pending').find((c) => !before.has(c.id) && inTree(c.id))?.id, 120_000, 2);
      toTree.push(performance.now() - t0);
      (byCli[row.cli] ??= []).push(toTree.at(-1)!);
      const shown = await core.cards.whole(id);
      const pressed = await core.act(core.gestures.fromUiEvent('bench:approve'), shown, { type: 'answer', answer: { approved: true } });
      if (!pressed.ok) throw new Error(`approve ${i}: ${pressed.problem.detail ?? pressed.problem.code}`);
      const holdEnd = Date.parse(pressed.card.undoUntil ?? '');
      const hookEnd = await hook.done;
      if (!row.allowPrinted.test(hookEnd.stdout)) throw new Error(`${row.cli} hook ${i} printed ${hookEnd.stdout || 'nothing'}`);
      // undoUntil is on the wall clock; the exit was seen on this process's monotonic one.
      toDecision.push(hookEnd.exitedAt - (performance.now() - (Date.now() - holdEnd)));
      await sleep(Math.max(GAP_MS, 2_000));
      await count(from, id, core.periodicFullReads !== periodicBefore);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!; };
    return {
      permissionToTree: { samples: toTree.length, p50Ms: pct(toTree, 50), p95Ms: pct(toTree, 95), samplesMs: toTree.map(Math.round) },
      permissionToTreeByCli: Object.fromEntries(Object.entries(byCli).map(([cli, xs]) => [cli, { samples: xs.length, p50Ms: pct(xs, 50), p95Ms: pct(xs, 95), samplesMs: xs.map(Math.round) }])),
      holdEndToDecision: { samples: toDecision.length, p50Ms: pct(toDecision, 50), p95Ms: pct(toDecision, 95), samplesMs: toDecision.map(Math.round) },
      // The first prompt registers a new session (its window's scope read again): given apart.
      readsPerAnswer: { mean: mean(reads), first: reads[0], meanAfterFirst: mean(reads.slice(1)), samples: reads, periodicFullRead: periodic },
      callsPerPrompt: { mean: mean(calls), first: calls[0], meanAfterFirst: mean(calls.slice(1)), samples: calls },
    };
  }

  it('activate() of a fresh load of the bundle', async () => {
    const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!;
    const api = await ext.activate();
    const ctx = api.app.ctx;
    // Free the running instance's command, view and provider ids.
    for (const d of ctx.subscriptions.splice(0)) {
      try { d.dispose(); } catch { /* keep going */ }
    }
    const bundle = path.join(ext.extensionPath, 'dist', 'extension.js');
    // Every file of dist/ is loaded afresh: extension.js and the shared chunks it requires at load
    // count (esbuild.mjs splits the extension); a file loaded later (the live set's, undici, jose)
    // is not in the figure unless activate() itself requires it.
    const dist = path.join(ext.extensionPath, 'dist') + path.sep;
    for (const f of Object.keys(require.cache)) if (f.startsWith(dist)) delete require.cache[f];
    const before = new Set(Object.keys(require.cache));
    const fresh = Object.create(ctx, { subscriptions: { value: [] as vscode.Disposable[] } }) as vscode.ExtensionContext;
    const t0 = performance.now();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh load of the built bundle is the point
    const mod = require(bundle) as { activate(c: vscode.ExtensionContext): unknown; deactivate?(): void };
    const t1 = performance.now();
    mod.activate(fresh);
    const t2 = performance.now();
    // The files this load and activate() read, with their sizes (the figure's bytes).
    const files = Object.keys(require.cache).filter((f) => !before.has(f)).map((f) => ({ file: path.relative(ext.extensionPath, f), bytes: fs.statSync(f).size }));
    out.activate = { activateMs: t2 - t1, loadMs: t1 - t0, loadAndActivateMs: t2 - t0, bundle: path.relative(ext.extensionPath, bundle), files };
    await sleep(500); // let its lazy start run before tearing down
    mod.deactivate?.();
    for (const d of fresh.subscriptions.splice(0)) {
      try { d.dispose(); } catch { /* keep going */ }
    }
  });

  after(async () => {
    if (w) await unwire(w).catch(() => undefined);
  });
});
