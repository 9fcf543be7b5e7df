// `npm run package` makes a small VSIX without sources, tests or maps; installed into code-server
// (as a person installs a downloaded VSIX), the extension activates in a real extension host.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const vsix = path.join(root, 'artifacts', 'assistant-cards.vsix');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; publisher: string; version: string };
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

function walk(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out); else out.push(p);
  }
  return out;
}

describe('packaging: the VSIX', function () {
  this.timeout(6 * 60_000);
  let tmp: string;
  let cs: { node: string; entry: string };
  let server: ChildProcess | undefined;

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assistant-cards-vsix-'));
    const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'package.mjs')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.equal(r.status, 0, `npm run package failed:\n${r.stdout}\n${r.stderr}`);
    cs = codeServer();
  });

  after(() => {
    if (server?.pid) { try { process.kill(-server.pid, 'SIGKILL'); } catch { /* gone */ } }
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('is small and holds the bundles and assets, not sources, tests or source maps', () => {
    const bytes = fs.statSync(vsix).size;
    assert.ok(bytes < 2 * 1024 * 1024, `VSIX is ${bytes} bytes`);
    const ls = spawnSync(process.execPath, [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' });
    const files = ls.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
    assert.ok(files.includes('dist/extension.js') && files.includes('package.json'), files.join(', '));
    assert.deepEqual(files.filter((f) => /\.map$|\.ts$|^(src|test|scripts|out|node_modules)\//.test(f)), []);
  });

  it('installs into code-server and activates there', async () => {
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

    // The extension host starts when a browser opens the workbench.
    const ws = path.join(tmp, 'workspace');
    fs.mkdirSync(ws, { recursive: true });
    server = spawn(cs.node, [cs.entry, ...common, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'], {
      detached: true, stdio: 'ignore', env: { ...process.env, HOME: tmp },
    });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 240; i++) {
      try { if ((await fetch(`${base}/healthz`)).status < 500) break; } catch { /* not yet */ }
      await new Promise((r) => setTimeout(r, 250));
    }
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: process.env.ASSISTANT_CARDS_CHROMIUM ?? '/usr/bin/chromium', headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${base}/?folder=${encodeURIComponent(ws)}`);
      // The extension host's log names every extension it activates.
      const activated = new RegExp(`ExtensionService#_doActivateExtension ${extensionId.replace('.', '\\.')}\\b`);
      const end = Date.now() + 90_000;
      let found = false;
      while (!found && Date.now() < end) {
        found = walk(path.join(userData, 'logs')).filter((f) => /exthost/.test(f) && f.endsWith('.log'))
          .some((f) => activated.test(fs.readFileSync(f, 'utf8')));
        if (!found) await new Promise((r) => setTimeout(r, 500));
      }
      assert.ok(found, `the extension host log shows ${extensionId} activated`);
      // And it did its first work: its status bar item is on screen.
      await page.locator('[id$="assistantCards.status"], [aria-label*="Assistant Cards"]').first().waitFor({ timeout: 30_000 });
    } finally {
      await browser.close();
    }
  });
});
