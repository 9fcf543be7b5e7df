// OpenCode's config-folder packages, kept in the test cache so that each run does not download them.
// At its first request OpenCode (1.18.33, its Npm.install) makes sure `<config>/opencode` has
// `@opencode-ai/plugin` at its own version: without a node_modules there, or with a package.json
// dependency the package-lock.json's root lacks, it installs with npm's Arborist from the registry
// (about 64 MB, 28 packages, 30-60 s on two busy cores); otherwise it installs nothing. It does not
// compare versions, so the cache is kept under OpenCode's version and checked whole before it is given.
// Only these three are OpenCode's own: Connect's files (plugins/, opencode.json) are never copied.
import fs from 'node:fs';
import path from 'node:path';

/** What OpenCode's install leaves in its config folder, and the test cache keeps. */
const KEPT = ['package.json', 'package-lock.json', 'node_modules'];
/** The cache's last file, written once the rest is in place: the OpenCode version it came from. */
const MARK = '.complete';
const PLUGIN = '@opencode-ai/plugin';

export interface PackagesCache {
  /** The cache folder (e.g. ~/.cache/assistant-cards/opencode-1.18.33/config-packages). */
  dir: string;
  /** OpenCode's version, which is also the plugin package's. */
  version: string;
}

const readJson = (file: string): unknown => {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return undefined; }
};

/**
 * Why `folder` does not hold OpenCode's packages at `version` whole, or undefined when it does: the
 * lock's root depends on the plugin, the plugin is that version, and every package the lock names
 * but optional ones is in node_modules (a copy or an install cut short lacks some).
 */
export function packagesMissing(folder: string, version: string): string | undefined {
  const lock = readJson(path.join(folder, 'package-lock.json')) as { packages?: Record<string, { dependencies?: Record<string, string>; optional?: boolean }> } | undefined;
  if (!lock?.packages) return 'no package-lock.json';
  if (!lock.packages['']?.dependencies?.[PLUGIN]) return `the lock does not depend on ${PLUGIN}`;
  if (!readJson(path.join(folder, 'package.json'))) return 'no package.json';
  const plugin = readJson(path.join(folder, 'node_modules', PLUGIN, 'package.json')) as { version?: string } | undefined;
  if (plugin?.version !== version) return `${PLUGIN} is ${plugin?.version ?? 'missing'}, not ${version}`;
  // Optional ones are other platforms' builds (msgpackr-extract-darwin-arm64...), never installed here.
  const absent = Object.entries(lock.packages).find(([p, e]) => p && !e.optional && !fs.existsSync(path.join(folder, p, 'package.json')))?.[0];
  return absent ? `${absent} is missing` : undefined;
}

/** Why the cache cannot be given, or undefined when it can. */
function cacheMissing(cache: PackagesCache): string | undefined {
  const mark = readJson(path.join(cache.dir, MARK)) as { opencode?: string } | undefined;
  if (mark?.opencode !== cache.version) return mark ? `kept for OpenCode ${mark.opencode}` : 'not kept yet';
  return packagesMissing(cache.dir, cache.version);
}

/**
 * Copies the kept packages into OpenCode's config folder `config` (<XDG_CONFIG_HOME>/opencode), so
 * OpenCode finds them installed. With no whole cache for this version, nothing is copied and OpenCode
 * downloads them as it always does. Returns what happened, for the test's log.
 */
export function givePackages(config: string, cache: PackagesCache): string {
  const missing = cacheMissing(cache);
  if (missing) return `OpenCode's packages: downloaded by OpenCode (the cache: ${missing})`;
  try {
    for (const name of KEPT) fs.cpSync(path.join(cache.dir, name), path.join(config, name), { recursive: true, verbatimSymlinks: true });
  } catch (e) {
    for (const name of KEPT) fs.rmSync(path.join(config, name), { recursive: true, force: true });
    return `OpenCode's packages: downloaded by OpenCode (copying the cache failed: ${e instanceof Error ? e.message : String(e)})`;
  }
  return `OpenCode's packages: from the cache ${cache.dir}`;
}

/**
 * Keeps what OpenCode installed in `config` in the cache, when the cache lacks it and the install is
 * whole (OpenCode may have been stopped during it). Copied beside the cache and renamed into place,
 * so a reader never sees half of it; a cache a parallel run kept first is left as it is.
 */
export function keepPackages(config: string, cache: PackagesCache): string {
  if (!cacheMissing(cache)) return 'OpenCode\'s packages: already in the cache';
  const missing = packagesMissing(config, cache.version);
  if (missing) return `OpenCode's packages: not kept (${missing})`;
  const staging = `${cache.dir}.${process.pid}.tmp`;
  try {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging, { recursive: true });
    for (const name of KEPT) fs.cpSync(path.join(config, name), path.join(staging, name), { recursive: true, verbatimSymlinks: true });
    fs.writeFileSync(path.join(staging, MARK), JSON.stringify({ opencode: cache.version, kept: new Date().toISOString() }));
    if (!cacheMissing(cache)) return 'OpenCode\'s packages: already in the cache';
    fs.rmSync(cache.dir, { recursive: true, force: true });
    fs.renameSync(staging, cache.dir);
    return `OpenCode's packages: kept in ${cache.dir}`;
  } catch (e) {
    return `OpenCode's packages: not kept (${e instanceof Error ? e.message : String(e)})`;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
