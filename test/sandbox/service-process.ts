// The real local-service process for plain-Node tests: src/sandbox/main.ts bundled once per run,
// started with `--service` in a home of the test's own (ASSISTANT_CARDS_HOME), its one JSON line
// read from stdout.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let bundling: Promise<string> | undefined;

/** dist-like sandbox.js built from the sources (esbuild, about a second). */
export function serviceScript(): Promise<string> {
  bundling ??= (async () => {
    const { build } = await import('esbuild');
    const out = join(mkdtempSync(join(tmpdir(), 'ac-service-bundle-')), 'sandbox.js');
    await build({ entryPoints: ['src/sandbox/main.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: out, logLevel: 'silent' });
    // The store's SQLite loads its .wasm from beside the bundle, as in dist/ (esbuild.mjs).
    copyFileSync(join('node_modules', 'node-sqlite3-wasm', 'dist', 'node-sqlite3-wasm.wasm'), join(out, '..', 'node-sqlite3-wasm.wasm'));
    return out;
  })();
  return bundling;
}

export interface StartLine { event: 'ready' | 'running' | 'failed'; url?: string; pid?: number; home?: string; machineFile?: string; message?: string }

export interface ServiceRun { child: ChildProcess; line: Promise<StartLine>; exited: Promise<number | null> }

export async function spawnService(bridgeHome: string, args: string[] = []): Promise<ServiceRun> {
  const script = await serviceScript();
  const child = spawn(process.execPath, [script, '--service', ...args], {
    env: { ...process.env, ASSISTANT_CARDS_HOME: bridgeHome },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = new Promise<StartLine>((resolve, reject) => {
    let buf = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl !== -1) resolve(JSON.parse(buf.slice(0, nl)) as StartLine);
    });
    void exited.then((code) => reject(new Error(`the service exited (${code}) before its line: ${err}`)));
  });
  return { child, line, exited };
}

export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'ac-service-home-'));
}
