// The release bundle's size, part by part (#39: load in 30 ms). esbuild.mjs splits the extension:
// what activate() needs loads with dist/extension.js (it and the shared chunks it requires at
// load), the client core and the live set load on the first live set (live-core-*.js), undici and
// jose at the first request. Each part has a budget; a part over it fails here, so the bundle's
// growth is a decision (raise the budget in docs/decisions.md, "Load at activation") and never
// an accident. What loads at activation must also stay free of the parts that are not needed then.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BundlePart, PartName } from '../../scripts/bundle-parts.mjs' with { 'resolution-mode': 'import' };

const root = path.resolve(__dirname, '..', '..');
const KB = 1024;

/** Each part's budget in bytes, with some room above its size when the budget was set (2026-11-27). */
const BUDGET: Record<PartName, number> = {
  // extension.js + the chunks it requires at load: 119 KB when set; 298 KB before the split.
  // 135 KB until #54 (clis): Connect's refusals (F10) and the connected-CLIs key made it 135.4 KB.
  // 137 KB until #51 (service): Start/Stop Local Service, Allow a Sign-In and the handle that loads
  // the local service's part after activation (~1.4 KB; the rest is its own part) made it 137.1 KB.
  // 138 KB until #54 (always): the palette's and a proposal's "Always allow" made it 138.2 KB.
  // Then #54 (opencode): Connect OpenCode's commands and the words saying it writes a plugin: 138.6 KB.
  // 139 KB until #54 (clihost): the connected CLIs as rows of the Assistants view (their state,
  // kept across live sets) and the lazy load of the bridge's words file (+0.7 KB).
  // 135 KB again with the bundle's goals (#51, #54): 139.3 KB -> 99.0 KB. The files rewritten as CommonJS without
  // esbuild's helpers (scripts/esm-to-cjs.mjs), the palette's picks and the Answers' search and
  // export in a part of their own (the Answers view with them, out of the shared chunk).
  activation: 135 * KB,
  // The client core (sync, api, auth, zod), the trees, notifications, the card panel's host: 155 KB.
  // The bundle's goals (#51, #54): 163.1 KB with the Answers view (a chunk it shares with the palette's part), zod's util
  // cut to what is used (esbuild.mjs zod-util-direct: -7 KB).
  liveSet: 180 * KB,
  // Connect's planner of the CLIs' settings (with jsonc-parser): 23 KB.
  // 30 KB until #54: the CLI adapters and the settings file's reader came in with it (30.0 KB).
  // 33 KB until #54 (opencode): OpenCode's plugin, whole, is Connect's to write; with #54 (always)
  // 37.1 KB (30.9 before both).
  // 38 KB until #54 (clihost): the bridge's words file (its list of messages and its writer),
  // written at Connect, made it 40.2 KB.
  // 40 KB again with the bundle's goals (#51, #54): 38.5 KB, the CommonJS files without esbuild's helpers.
  connect: 40 * KB,
  // The local service's look, start, stop and sign-in dialog (#51): 11 KB when set.
  localService: 15 * KB,
  // The palette's picks (cards, answers, later, helper, filter, scope) and the Answers' export (#51, #54, bundle): 16.0 KB when set.
  palette: 20 * KB,
  // undici (183 KB) and jose (59 KB), loaded at the first request.
  late: 260 * KB,
  // The card panel's page (43 KB), the assistants' hook (20 KB), the local sandbox (798 KB).
  // 50 KB until #53 (action4): the action table (shared/card-actions.ts), whose rows hold each
  // action whole, palette and notification words too, came with the panel's buttons: 47.7 -> 50.6 KB.
  webview: 52 * KB,
  // 25 KB until #54: one adapter per CLI (four) made it 27.9 KB with #52's card changes; #51's
  // proof of the service (F1) and #53's session keys 31.4 KB.
  // 33 KB until #54 (always): Claude Code's "Always allow" (its suggestions read, the option, the grant) made it 34.1 KB (31.8 before).
  // Then #54 (opencode): OpenCode's adapter (without its plugin's text, which only Connect needs)
  // and the watch on a CLI's process: 35.4 KB.
  // 36 KB until #54 (clihost): the list of the bridge's words and their reader (the person's
  // language, Always allow's words too) made it 37.2 KB.
  // 38 KB until #54: Edit, MultiEdit and Write cards' diffs (diff: the line comparison, the read of
  // the file a Write replaces, their 17 words; 37.1 -> 42.7 KB) and plain `codex`'s terminal UI found
  // behind its background server with the watcher that ends its session (codexend: +3.3 KB).
  // 47 KB until #53/#54 (treefast): a session's file name hashed in plain JavaScript, so a hook's
  // start loads no node:crypto (sha256.ts), and Node's modules required once rather than copied per
  // file (builtins-once), 10-30 ms sooner per hook for +1.5 KB; 47.6 KB with the /proc stat reader.
  // 49 KB until #53 (the hook host, stop 59): its server, the launcher's process read from /proc
  // and its log made it 52.7 KB; an event it runs starts no Node (about 70 ms sooner per event),
  // and where Node still runs a hook the 5 KB more is only pre-parsed.
  bridge: 54 * KB,
  sandbox: 880 * KB,
};

/** Sources that activate() does not need: none of them may be in what loads at activation. */
const NOT_AT_ACTIVATION = [
  'node_modules/zod/', 'node_modules/undici/', 'node_modules/jose/',
  'src/sync/session.ts', 'src/api/client.ts', 'src/api/schemas.ts', 'src/auth/', 'src/editor/live-parts.ts',
  'src/editor/cards/cards-tree.ts', 'src/editor/panel/card-panel.ts', 'src/shared/protocol.ts',
  'node_modules/jsonc-parser/', 'src/bridge/connect-settings.ts',
];

describe('the release bundle keeps to its budget, part by part', function () {
  this.timeout(120_000);
  let dir: string;
  let parts: Record<PartName, BundlePart>;

  before(async () => {
    const { releaseParts } = await import('../../scripts/bundle-parts.mjs');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-budget-'));
    const b = spawnSync(process.execPath, ['esbuild.mjs', '--release', '--outdir', dir], { cwd: root, encoding: 'utf8' });
    assert.equal(b.status, 0, `esbuild.mjs --release: ${b.stderr}`);
    parts = releaseParts(dir);
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [part, budget] of Object.entries(BUDGET) as [PartName, number][]) {
    it(`${part}: at most ${Math.round(budget / KB)} KB`, () => {
      const p = parts[part];
      assert.ok(p && p.files.length > 0, `no file of the part ${part}`);
      assert.ok(p.bytes <= budget, `${part} is ${(p.bytes / KB).toFixed(1)} KB (${p.files.join(', ')}), over its budget of ${budget / KB} KB`);
    });
  }

  it('every file of the extension is in one part (a new file needs a part and a budget)', () => {
    const counted = new Set(Object.values(parts).flatMap((p) => p.files));
    const js = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
    assert.deepEqual(js.filter((f) => !counted.has(f)), []);
  });

  it('what loads at activation holds none of the client core, the wire schemas or the card panel', () => {
    const sources = parts.activation.files.flatMap((f) => (JSON.parse(fs.readFileSync(path.join(dir, `${f}.map`), 'utf8')) as { sources: string[] }).sources);
    const found = sources.map((s) => path.relative(root, path.resolve(dir, s)).split(path.sep).join('/'))
      .filter((s) => NOT_AT_ACTIVATION.some((n) => s.startsWith(n)));
    assert.deepEqual(found, []);
  });

  it('the live set\'s file loads in plain Node and brings the client core (its require of the shared chunks resolves)', () => {
    const live = parts.liveSet.files[0]!;
    const probe = `
const Module = require('node:module');
const load = Module._load;
const api = new Proxy({ l10n: { t: (m) => m } }, { get: (t, k) => (k in t ? t[k] : function Stub() {}) });
Module._load = function (request, ...rest) { return request === 'vscode' ? api : load.call(this, request, ...rest); };
const m = require(process.argv[1]);
process.stdout.write(JSON.stringify({ createClientCore: typeof m.createClientCore, LiveParts: typeof m.LiveParts }));
`;
    const r = spawnSync(process.execPath, ['-e', probe, path.join(dir, live)], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { createClientCore: 'function', LiveParts: 'function' });
  });
});
