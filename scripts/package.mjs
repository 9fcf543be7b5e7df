// `npm run package`: a release build (minified) and a VSIX by @vscode/vsce at
// artifacts/assistant-cards.vsix. Checks what went in: no sources, tests or source maps.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const VSIX = path.join(root, 'artifacts', 'assistant-cards.vsix');

function run(args) {
  // stdin closed: vsce asks questions (missing LICENSE, repository) only on a terminal.
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/** The files `vsce ls` says the VSIX holds. */
export function vsixFiles() {
  const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`vsce ls failed: ${r.stderr}`);
  return r.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
}

export function packageVsix() {
  run(['esbuild.mjs', '--release']);
  const files = vsixFiles();
  const unwanted = files.filter((f) => /\.map$|(^|\/)(src|test|scripts|out|\.cache)\//.test(f) || (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)));
  if (unwanted.length) throw new Error(`the VSIX would hold files it should not (fix .vscodeignore): ${unwanted.join(', ')}`);
  fs.mkdirSync(path.dirname(VSIX), { recursive: true });
  run([path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--no-rewrite-relative-links', '-o', VSIX]);
  const bytes = fs.statSync(VSIX).size;
  console.log(`[package] ${path.relative(root, VSIX)}: ${(bytes / 1024).toFixed(1)} KB, ${files.length} files`);
  return { path: VSIX, bytes, files };
}

if (import.meta.url === `file://${process.argv[1]}` || fileURLToPath(import.meta.url) === path.resolve(process.argv[1] ?? '')) {
  try {
    packageVsix();
  } catch (e) {
    console.error(`[package] ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
