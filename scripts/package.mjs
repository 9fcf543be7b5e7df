// `npm run package`: a release build (minified) and a VSIX by @vscode/vsce at
// artifacts/assistant-cards.vsix, with README.vsix.md (written for people installing it) as its
// README. Checks what went in (no sources, tests or source maps) and fails on any vsce warning.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const VSIX = path.join(root, 'artifacts', 'assistant-cards.vsix');
/** Where the VSIX is put together: its own release build, so dist/ (which test windows load) is never rewritten. */
const STAGE = path.join(root, 'artifacts', 'vsix-stage');
/** What the VSIX takes from the repository besides the bundles (.vscodeignore picks within these). */
const STAGED = ['package.json', 'package.nls.json', '.vscodeignore', 'README.vsix.md', 'README.md', 'CHANGELOG.md', 'LICENSE', 'l10n', 'media'];
/** The Marketplace / Open VSX README; the repository's README.md is for developers. */
export const VSIX_README = 'README.vsix.md';
const PSEUDO = /\.qps-ploc\.(json|md)$/;

function run(args, cwd = root) {
  // stdin closed: vsce asks questions (missing LICENSE, repository) only on a terminal.
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  return `${r.stdout ?? ''}${r.stderr ?? ''}`;
}

/** vsce's warnings (missing repository, LICENSE, ...) in its output, without colours: each is a release blocker here. */
export function vsceWarnings(output) {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  // Plain: " WARNING  text" (the rest of a long warning follows on the next lines, printed above);
  // on GitHub Actions: "::warning::text".
  return plain.split('\n').filter((l) => /^\s*WARNING\b|^::warning/i.test(l))
    .map((l) => l.replace(/^\s*WARNING\s*|^::warning[^:]*::/i, '').trim());
}

/** The files `vsce ls` says the VSIX made in `dir` holds. */
export function vsixFiles(dir = STAGE) {
  const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies', '--readme-path', VSIX_README], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`vsce ls failed: ${r.stderr}`);
  return r.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
}

/**
 * The repository's package files in `dir`, and a build of esbuild.mjs with `buildArgs` in its
 * dist/: a release for the VSIX, or the tests' own build (`--test-handle`) for the Restricted Mode
 * window's VSIX (scripts/host-test.mjs), which then never passes through the repository's dist/.
 */
export function stageExtension(dir, buildArgs) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  // The pseudo-locale's files (scripts/l10n-pseudo.mjs) are for tests, never for people.
  const forPeople = (src) => !PSEUDO.test(path.basename(src));
  for (const f of STAGED) if (fs.existsSync(path.join(root, f))) fs.cpSync(path.join(root, f), path.join(dir, f), { recursive: true, filter: forPeople });
  run(['esbuild.mjs', ...buildArgs, '--outdir', path.join(dir, 'dist')]);
}

/** The repository's package files and a release build, in STAGE. */
function stage() {
  stageExtension(STAGE, ['--release']);
}

export function packageVsix() {
  stage();
  const files = vsixFiles();
  const unwanted = files.filter((f) => /\.map$|(^|\/)(src|test|scripts|out|\.cache)\//.test(f) || (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)) || PSEUDO.test(f));
  if (unwanted.length) throw new Error(`the VSIX would hold files it should not (fix .vscodeignore): ${unwanted.join(', ')}`);
  // Every script the build made is loaded by some path (a lazy part too): one left out fails only when that path runs.
  const built = fs.readdirSync(path.join(STAGE, 'dist')).filter((f) => f.endsWith('.js')).map((f) => `dist/${f}`);
  const missing = built.filter((f) => !files.includes(f));
  if (missing.length) throw new Error(`the VSIX would miss files of the build (fix .vscodeignore): ${missing.join(', ')}`);
  fs.mkdirSync(path.dirname(VSIX), { recursive: true });
  // Relative links (the screenshots) become links into the repository: the Marketplace page
  // cannot show files from inside the VSIX.
  const output = run([path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--readme-path', VSIX_README, '-o', VSIX], STAGE);
  const warnings = vsceWarnings(output);
  if (warnings.length) {
    fs.rmSync(VSIX, { force: true });
    throw new Error(`vsce warned (fix package.json, no VSIX made):\n  ${warnings.join('\n  ')}`);
  }
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
