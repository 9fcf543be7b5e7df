// `npm start` on a desktop with VS Code: when `code` is on the PATH, start.mjs opens it with the
// extension loaded from this folder. A stand-in `code` records what it was asked to open; when
// it exits (the window closed), start.mjs stops the sandbox it started and exits 0. It runs in a
// copy of the checkout (start.mjs builds dist/, which the host tiers beside it use), sharing this
// checkout's node_modules.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { until } from '../kit/until';
import { copyCheckout } from './checkout-copy';

const root = path.resolve(__dirname, '..', '..');

/** The files git tracks (and new ones it does not ignore), with this checkout's node_modules linked in. */
function copyOfCheckout(dir: string): string {
  copyCheckout(dir);
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  // The lockfile as old as the installed tree, so start.mjs installs nothing into the shared one.
  const installed = fs.statSync(path.join(root, 'node_modules', '.package-lock.json'));
  fs.utimesSync(path.join(dir, 'package-lock.json'), installed.atime, new Date(installed.mtimeMs - 1000));
  return dir;
}

describe('npm start with desktop VS Code (a stand-in `code` on the PATH)', function () {
  this.timeout(180_000);

  it('opens `code` on the demo workspace with the extension under development, a fresh window, and waits for it', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-start-desktop-'));
    const bin = path.join(tmp, 'bin');
    const record = path.join(tmp, 'code-args.json');
    fs.mkdirSync(bin);
    fs.mkdirSync(path.join(tmp, 'checkout'));
    // The stand-in: writes its arguments, then "the window closes" (exits).
    fs.writeFileSync(path.join(bin, 'code'), `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`, { mode: 0o755 });
    const work = path.join(tmp, 'work');
    const checkout = copyOfCheckout(path.join(tmp, 'checkout'));
    const child = spawn(process.execPath, [path.join(checkout, 'scripts', 'start.mjs'), '--no-demo-terminals', '--work', work], {
      cwd: checkout, env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until('the stand-in code was run', () => fs.existsSync(record), 150_000);
      const args = JSON.parse(fs.readFileSync(record, 'utf8')) as string[];
      assert.ok(args.includes(`--extensionDevelopmentPath=${checkout}`), `the extension from this folder: ${args.join(' ')}`);
      assert.ok(fs.existsSync(path.join(checkout, 'dist', 'extension.js')), 'built before VS Code opens it');
      assert.ok(args.includes('--new-window') && args.includes('--wait'), 'a new window, waited for');
      assert.ok(args.some((a) => a.startsWith(`--user-data-dir=${work}`)), 'its own profile under --work');
      const ws = args[args.length - 1]!;
      assert.ok(fs.existsSync(ws), `the demo workspace it opens exists: ${ws}`);
      assert.equal(await exited, 0, `start.mjs stops by itself when the window closes\n${out}`);
      assert.match(out, /the VS Code window closed/);
    } finally {
      child.kill('SIGTERM');
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
