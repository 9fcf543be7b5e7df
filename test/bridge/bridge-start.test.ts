// What the bridge's bundle loads when a hook starts: every CLI event is a new process, and its
// start is on the card's way to the tree (#53/#54, permissionToTreeP95Ms). node:https (with
// node:tls), node:child_process and node:crypto are loaded only where they are used: a service
// behind https, `ps` where /proc does not answer, and the proof of a service reached by its port
// (its private socket needs none); a session's file name is hashed in plain JavaScript
// (sha256.ts). The bundle is built here as esbuild.mjs builds it.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { PROOF_PATH, proofOf } from '../../src/bridge/service-proof';
import { runTsChild } from './ts-child';

const root = path.resolve(__dirname, '..', '..');

describe('the bridge\'s start', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-start-'));
    const { builtinsOnce } = await import('../../scripts/builtins-once.mjs');
    await esbuild.build({
      entryPoints: [path.join(root, 'src/bridge/main.ts')], outfile: path.join(dir, 'bridge.js'),
      bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error', plugins: [builtinsOnce],
    });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a hook loads neither node:https nor node:tls nor node:child_process nor node:crypto with the bundle', () => {
    // The Node modules loaded by requiring the bundle as `bridge.js hook claude-code` (its static
    // requires run then; the hook itself reads an empty stdin and does nothing).
    const probe = `
const before = new Set(process.moduleLoadList);
process.argv = [process.argv[0], ${JSON.stringify(path.join(dir, 'bridge.js'))}, 'hook', 'claude-code'];
process.exit = () => undefined;
require(process.argv[1]);
process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m))));
`;
    const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ASSISTANT_CARDS_HOME: dir } });
    assert.equal(r.status, 0, r.stderr);
    const loaded = JSON.parse(r.stdout) as string[];
    assert.ok(loaded.includes('NativeModule http'), `the probe saw the bundle load: ${loaded.join(', ')}`);
    assert.deepEqual(loaded.filter((m) => /^NativeModule (https|tls|child_process|crypto)$/.test(m)), []);
  });

  it('no Node module is copied whole into the bundle (scripts/builtins-once.mjs)', () => {
    // esbuild's `__toESM(require("node:path"))` copies the module's every property, once per file
    // that imports it: milliseconds of each hook's start.
    const text = fs.readFileSync(path.join(dir, 'bridge.js'), 'utf8');
    assert.ok(text.includes('require("node:fs")'), 'the bundle requires node:fs');
    assert.deepEqual(text.match(/__toESM\(require\("node:[^"]*"\)\)/g) ?? [], []);
  });

  it('a Node module imported through the plugin is the module: default, namespace and named imports', async () => {
    const { builtinsOnce } = await import('../../scripts/builtins-once.mjs');
    const entry = path.join(dir, 'imports.ts');
    fs.writeFileSync(entry, [
      "import fs from 'node:fs';", "import * as p from 'node:path';", "import { join } from 'node:path';",
      "process.stdout.write(JSON.stringify([fs.readFileSync === require('node:fs').readFileSync, p.sep, join('a', 'b')]));",
    ].join('\n'));
    await esbuild.build({ entryPoints: [entry], outfile: path.join(dir, 'imports.js'), bundle: true, platform: 'node', format: 'cjs', logLevel: 'error', plugins: [builtinsOnce] });
    const r = spawnSync(process.execPath, [path.join(dir, 'imports.js')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [true, path.sep, path.join('a', 'b')]);
  });

  it('a service behind https is still reached: node:https is loaded when the address asks for it', async () => {
    const tls = path.join(root, 'test/fixtures/tls');
    const askKey = 'key-of-this-test';
    const server = https.createServer({ cert: fs.readFileSync(path.join(tls, 'cert.pem')), key: fs.readFileSync(path.join(tls, 'key.pem')) }, (req, res) => {
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      res.setHeader('content-type', 'application/json');
      if (url.pathname === PROOF_PATH) res.end(JSON.stringify({ proof: proofOf(askKey, url.searchParams.get('nonce') ?? '') }));
      else res.end(JSON.stringify({ reached: `${req.method} ${url.pathname}`, bearer: req.headers.authorization === `Bearer ${askKey}` }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const call = `
const { ServiceLink } = require(${JSON.stringify(path.join(root, 'src/bridge/service-link.ts'))});
new ServiceLink({ url: ${JSON.stringify(url)}, askKey: ${JSON.stringify(askKey)}, pid: process.pid }).call('GET', '/_ask/anything')
  .then((r) => process.stdout.write(JSON.stringify(r)), (e) => { process.stderr.write(String(e)); process.exitCode = 1; });
`;
      // The fixture's certificate is self-signed: this child trusts it.
      const out = await runTsChild(call, { env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(tls, 'cert.pem') } });
      assert.deepEqual(JSON.parse(out), { reached: 'GET /_ask/anything', bearer: true });
    } finally {
      server.close();
    }
  });
});
