// `npm run package` makes a small VSIX without sources, tests or maps, with no vsce warning, the
// README written for people installing it, the 128x128 icon and the walkthrough's media; installed
// into code-server (as a person installs a downloaded VSIX), the extension activates in a real
// extension host.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { BROWSER_ARGS, chromiumPath } from '../../scripts/test-browser.cjs';
import { until } from '../kit/until';
import { openWorkbench } from './open-workbench';

const root = path.resolve(__dirname, '..', '..');
const vsix = path.join(root, 'artifacts', 'assistant-cards.vsix');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string; publisher: string; version: string; icon?: string;
  contributes: { walkthroughs?: { steps: { media: { image?: string; markdown?: string } }[] }[] };
};
const extensionId = `${manifest.publisher}.${manifest.name}`;

function codeServer(): { node: string; entry: string } {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'install-code-server.mjs')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  assert.equal(r.status, 0, 'code-server installs (scripts/install-code-server.mjs)');
  const last = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as { node: string; entry: string };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const a = s.address(); s.close(() => resolve(typeof a === 'object' && a ? a.port : 0)); });
  });
}

/** The entries of a zip (a VSIX), read with Node alone: the central directory, then each entry. */
function readZip(file: string): Map<string, Buffer> {
  const buf = fs.readFileSync(file);
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'a zip end record');
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(at), 0x02014b50, 'a central directory entry');
    const method = buf.readUInt16LE(at + 10);
    const size = buf.readUInt32LE(at + 20);
    const nameLen = buf.readUInt16LE(at + 28);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    const data = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(data, data + size);
    out.set(name, method === 8 ? zlib.inflateRawSync(raw) : Buffer.from(raw));
    at += 46 + nameLen + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return out;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  assert.equal(png.toString('ascii', 12, 16), 'IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function walk(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out); else out.push(p);
  }
  return out;
}

/**
 * A second extension, packaged as a VSIX, that activates at start and writes down what Assistant
 * Cards' activate() returned: its keys, their types, whether it is frozen, and any object reachable
 * from it (the test expects none: only functions and a number).
 */
function packProbe(dir: string, out: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    name: 'exports-probe', publisher: 'assistant-cards-tests', version: '0.0.1', license: 'MIT', main: './extension.js',
    repository: { type: 'git', url: 'https://example.invalid/probe.git' }, engines: { vscode: '^1.93.0' }, activationEvents: ['onStartupFinished'],
  }));
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'MIT');
  fs.writeFileSync(path.join(dir, 'README.md'), '# Exports probe\n\nReads what another extension exports, for a test.\n');
  fs.writeFileSync(path.join(dir, '.vscodeignore'), '');
  fs.writeFileSync(path.join(dir, 'extension.js'), `
const vscode = require('vscode');
const fs = require('fs');
exports.activate = async () => {
  const ext = vscode.extensions.getExtension(${JSON.stringify(extensionId)});
  const api = ext ? await ext.activate() : undefined;
  const keys = api ? Reflect.ownKeys(api).map(String) : [];
  const types = {};
  const deep = [];
  for (const k of keys) {
    types[k] = typeof api[k];
    if (api[k] !== null && typeof api[k] === 'object') deep.push(k);
    if (typeof api[k] === 'function') for (const p of Reflect.ownKeys(api[k])) if (!['length', 'name', 'prototype'].includes(String(p))) deep.push(k + '.' + String(p));
  }
  // Each of the three, used as an extension author would: the count, a listener, open().
  let listened = null;
  if (api && typeof api.onDidChangeWaiting === 'function') {
    const sub = api.onDidChangeWaiting(() => undefined);
    listened = !!sub && typeof sub.dispose === 'function';
    if (listened) sub.dispose();
  }
  const opens = {};
  if (api && typeof api.open === 'function') {
    for (const id of ['req_probe-1', 'not a card', 42]) {
      const r = api.open(id);
      opens[String(id)] = r && typeof r.then === 'function' ? await r : 'not a promise';
    }
  }
  fs.writeFileSync(${JSON.stringify(out)}, JSON.stringify({ found: !!ext, keys, types, frozen: !!api && Object.isFrozen(api), apiVersion: api ? api.apiVersion : null, waiting: api && typeof api.waitingCount === 'function' ? api.waitingCount() : null, listened, opens, deep }));
};
`);
  const file = path.join(dir, 'probe.vsix');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '-o', file], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(r.status, 0, `vsce package of the probe: ${r.stderr}${r.stdout}`);
  return file;
}

describe('packaging: the VSIX', function () {
  this.timeout(6 * 60_000);
  let tmp: string;
  let cs: { node: string; entry: string };
  let server: ChildProcess | undefined;
  let packaged: { status: number | null; output: string };

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assistant-cards-vsix-'));
    fs.rmSync(vsix, { force: true }); // never a VSIX of an earlier run
    const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'package.mjs')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    packaged = { status: r.status, output: `${r.stdout}\n${r.stderr}` };
    cs = codeServer();
  });

  it('is packaged without a single vsce warning', () => {
    assert.doesNotMatch(packaged.output, /WARNING|::warning/i, packaged.output);
    assert.equal(packaged.status, 0, `npm run package failed:\n${packaged.output}`);
  });

  it('makes the package script fail, with the warning, when vsce warns', () => {
    // A bare extension without a repository field: vsce warns, the script must say so and stop.
    const bare = path.join(tmp, 'bare');
    fs.mkdirSync(bare, { recursive: true });
    fs.writeFileSync(path.join(bare, 'package.json'), JSON.stringify({ name: 'bare', publisher: 'p', version: '0.0.1', license: 'MIT', engines: { vscode: '^1.93.0' } }));
    fs.writeFileSync(path.join(bare, 'LICENSE'), 'MIT');
    fs.writeFileSync(path.join(bare, 'README.md'), '# Bare\n\nAn extension for this test.\n');
    fs.writeFileSync(path.join(bare, '.vscodeignore'), '');
    const vsce = spawnSync(process.execPath, [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '-o', path.join(bare, 'bare.vsix')], { cwd: bare, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const check = spawnSync(process.execPath, ['--input-type=module', '-e',
      `import { vsceWarnings } from ${JSON.stringify(path.join(root, 'scripts', 'package.mjs'))}; process.stdin.setEncoding('utf8'); let s = ''; process.stdin.on('data', (d) => { s += d; }).on('end', () => console.log(JSON.stringify(vsceWarnings(s))));`,
    ], { input: `${vsce.stdout}\n${vsce.stderr}`, encoding: 'utf8' });
    const warnings = JSON.parse(check.stdout) as string[];
    assert.equal(warnings.length, 1, check.stdout + check.stderr);
    assert.match(warnings[0] ?? '', /'repository' field is missing/);
  });

  it('carries the README written for people installing it: what it does, a screenshot, sign-in, settings, privacy', () => {
    const readme = readZip(vsix).get('extension/readme.md')?.toString('utf8') ?? '';
    for (const heading of ['## What it does', '## Getting started', '## Keys', '## Settings', '## Privacy', '## For extension authors']) assert.ok(readme.includes(heading), `readme has ${heading}`);
    // The read-only API and the card link, as other extensions and tools use them.
    for (const word of ['waitingCount', 'onDidChangeWaiting', 'open(', '/card?id=req_']) assert.ok(readme.includes(word), `readme names ${word}`);
    assert.match(readme, /no telemetry/i);
    assert.match(readme, /Presence/);
    // The developers' README stays in the repository.
    assert.doesNotMatch(readme, /npm test/);
    // The screenshot: a PNG in the repository, linked over https for the Marketplace page.
    const shots = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1] ?? '');
    assert.ok(shots.length > 0, 'a screenshot');
    for (const url of shots) {
      assert.match(url, /^https:\/\/.+\/(media\/screenshots\/[\w-]+\.png)$/);
      const rel = /(media\/screenshots\/[\w-]+\.png)$/.exec(url)?.[1] ?? '';
      assert.ok(fs.existsSync(path.join(root, rel)), `${rel} is in the repository`);
    }
  });

  it('carries a 128x128 PNG icon and every walkthrough medium', () => {
    const entries = readZip(vsix);
    assert.ok(manifest.icon, 'package.json names an icon');
    const icon = entries.get(`extension/${manifest.icon}`);
    assert.ok(icon, `${manifest.icon} is in the VSIX`);
    assert.deepEqual(pngSize(icon), { width: 128, height: 128 });
    const media = (manifest.contributes.walkthroughs ?? []).flatMap((w) => w.steps.flatMap((s) => [s.media.image, s.media.markdown]))
      .filter((m): m is string => typeof m === 'string');
    assert.ok(media.length > 0, 'the walkthrough has media');
    for (const m of media) assert.ok(entries.has(`extension/${m}`), `${m} is in the VSIX`);
  });

  after(() => {
    if (server?.pid) { try { process.kill(-server.pid, 'SIGKILL'); } catch { /* gone */ } }
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('is small and holds the bundles and assets, not sources, tests or source maps', () => {
    const bytes = fs.statSync(vsix).size;
    assert.ok(bytes < 2 * 1024 * 1024, `VSIX is ${bytes} bytes`);
    const files = [...readZip(vsix).keys()].filter((f) => f.startsWith('extension/')).map((f) => f.slice('extension/'.length));
    assert.ok(files.includes('dist/extension.js') && files.includes('package.json'), files.join(', '));
    assert.deepEqual(files.filter((f) => /\.map$|\.ts$|^(src|test|scripts|out|node_modules)\//.test(f)), []);
  });

  it('installs into code-server and activates there; another extension gets only the read-only API from activate()', async () => {
    const extensionsDir = path.join(tmp, 'extensions');
    const userData = path.join(tmp, 'user-data');
    const config = path.join(tmp, 'code-server.yaml');
    const port = await freePort();
    fs.writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
    const common = ['--config', config, '--user-data-dir', userData, '--extensions-dir', extensionsDir];
    const install = spawnSync(cs.node, [cs.entry, ...common, '--install-extension', vsix], { encoding: 'utf8' });
    assert.equal(install.status, 0, install.stderr);
    const list = spawnSync(cs.node, [cs.entry, ...common, '--list-extensions', '--show-versions'], { encoding: 'utf8' });
    assert.match(list.stdout, new RegExp(`^${extensionId.replace('.', '\\.')}@${manifest.version}$`, 'm'));
    // Another extension, installed beside it, reads what activate() hands out.
    const probeOut = path.join(tmp, 'probe-exports.json');
    const probeInstall = spawnSync(cs.node, [cs.entry, ...common, '--install-extension', packProbe(path.join(tmp, 'probe'), probeOut)], { encoding: 'utf8' });
    assert.equal(probeInstall.status, 0, probeInstall.stderr);

    // The extension host starts when a browser opens the workbench.
    const ws = path.join(tmp, 'workspace');
    fs.mkdirSync(ws, { recursive: true });
    server = spawn(cs.node, [cs.entry, ...common, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'], {
      detached: true, stdio: 'ignore', env: { ...process.env, HOME: tmp },
    });
    const base = `http://127.0.0.1:${port}`;
    await until('code-server answers /healthz', async () => (await fetch(`${base}/healthz`)).status < 500, 60_000, 250);
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: chromiumPath(), headless: true, args: [...BROWSER_ARGS],
    });
    try {
      const page = await browser.newPage();
      // Activation and the status bar item are waited for below, each by name.
      await openWorkbench(page, `${base}/?folder=${encodeURIComponent(ws)}`, 'code-server');
      // The extension host's log names every extension it activates.
      const activated = new RegExp(`ExtensionService#_doActivateExtension ${extensionId.replace('.', '\\.')}\\b`);
      await until(`the extension host log showing ${extensionId} activated`, () => walk(path.join(userData, 'logs'))
        .filter((f) => /exthost/.test(f) && f.endsWith('.log')).some((f) => activated.test(fs.readFileSync(f, 'utf8'))), 90_000, 500);
      // And it did its first work: its status bar item is on screen.
      await page.locator('[id$="assistantCards.status"], [aria-label*="Assistant Cards"]').first().waitFor({ timeout: 60_000 }).catch(async (e: unknown) => {
        const shot = path.join(root, 'artifacts', 'vsix-no-status-item.png');
        await page.screenshot({ path: shot }).catch(() => undefined);
        throw new Error(`the extension's status bar item never showed in the workbench within 60 s (screenshot ${path.relative(root, shot)}): ${(e as Error).message}`);
      });
      // What another extension gets: the read-only API, frozen, and nothing that reaches the
      // context, the secrets, the client core or a press.
      await until('the probe extension to write what it got', () => fs.existsSync(probeOut), 60_000, 250);
      const seen = JSON.parse(fs.readFileSync(probeOut, 'utf8')) as {
        found: boolean; keys: string[]; types: Record<string, string>; frozen: boolean; apiVersion: unknown; waiting: unknown;
        listened: unknown; opens: Record<string, unknown>; deep: string[];
      };
      assert.equal(seen.found, true, 'the probe found the extension');
      assert.deepEqual(seen.keys.sort(), ['apiVersion', 'onDidChangeWaiting', 'open', 'waitingCount']);
      assert.deepEqual(seen.types, { apiVersion: 'number', onDidChangeWaiting: 'function', open: 'function', waitingCount: 'function' });
      assert.equal(seen.frozen, true);
      assert.equal(seen.apiVersion, 1);
      assert.equal(seen.waiting, 0, 'signed out: nothing waits');
      assert.equal(seen.listened, true, 'onDidChangeWaiting takes a listener and hands back a disposable');
      assert.deepEqual(seen.opens, { 'req_probe-1': false, 'not a card': false, 42: false }, 'open() resolves false signed out and for what is no card id');
      assert.deepEqual(seen.deep, [], 'no object behind the API');
    } finally {
      await browser.close();
    }
  });
});
