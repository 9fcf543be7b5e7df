// The stable hook command: `<bridgeHome>/bin/assistant-cards-hook` (`.cmd` on Windows), a small
// launcher that runs `<bridgeHome>/bin/bridge.js` (a copy of the extension's dist/bridge.js) with
// the editor's own runtime, so no `node` need be on the PATH. The CLIs' settings name the launcher,
// whose path never changes; the extension rewrites the launcher when its version or the runtime's
// path changes, and copies bridge.js when it differs. No `vscode` here: the editor hands in what
// it knows (its dist folder, process.execPath, its version).
//
// The runtime: process.execPath of the extension host. Desktop VS Code runs it in Electron, which
// runs a script as plain Node when ELECTRON_RUN_AS_NODE=1 (as VS Code's own `code` CLI does); in
// code-server and remote hosts it is Node itself, which ignores the variable.
//
// A broken install never fails loudly or slowly: with no bridge.js and no runtime the launcher
// exits 0 printing nothing, and a hook that prints nothing leaves the CLI's own prompt in charge.
import { constants as fsc, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { BIN_DIR } from './home';
import { HOOK_HOST_DIR, HOOK_HOST_ENV, HOOK_HOST_SOCKET } from './hook-host';
import { writeWhole } from './write-whole';

export const BRIDGE_FILE = 'bridge.js';

/** The launcher's file name on `platform`. */
export const launcherName = (platform: NodeJS.Platform): string => (platform === 'win32' ? 'assistant-cards-hook.cmd' : 'assistant-cards-hook');

/** A word of sh in single quotes. */
const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
/** A value of a cmd.exe `set "name=value"` (a `%` is doubled so it is not expanded). */
const cmdValue = (s: string): string => s.replace(/%/g, '%%').replace(/"/g, '');

export interface LauncherFacts {
  /** `<bridgeHome>/bin`. */
  binDir: string;
  /** The extension host's process.execPath. */
  runtime: string;
  /** The extension's version (written in the launcher, so an update rewrites it). */
  version: string;
  platform: NodeJS.Platform;
}

/** The launcher's text. */
export function launcherText({ binDir, runtime, version, platform }: LauncherFacts): string {
  if (platform === 'win32') {
    return [
      '@echo off',
      `rem Assistant Cards ${version}: the hook command of Claude Code and Codex. Written by the extension; rewritten when it changes.`,
      'rem Runs bridge.js with the editor\'s runtime; when either is missing it prints nothing, and the CLI asks as usual.',
      'setlocal',
      `set "AC_BRIDGE=${cmdValue(path.win32.join(binDir, BRIDGE_FILE))}"`,
      `set "AC_RUNTIME=${cmdValue(runtime)}"`,
      'if not exist "%AC_BRIDGE%" exit /b 0',
      'if not exist "%AC_RUNTIME%" exit /b 0',
      'set ELECTRON_RUN_AS_NODE=1',
      '"%AC_RUNTIME%" "%AC_BRIDGE%" %*',
      '',
    ].join('\r\n');
  }
  return [
    '#!/bin/sh',
    `# Assistant Cards ${version}: the hook command of the connected assistant CLIs. Written by the extension; rewritten when it changes.`,
    '# Runs bridge.js with the editor\'s runtime (node on the PATH when that is gone after an update);',
    '# when it cannot, it prints nothing and exits 0, and the CLI asks as usual.',
    `bridge=${sq(path.posix.join(binDir, BRIDGE_FILE))}`,
    `runtime=${sq(runtime)}`,
    '[ -f "$bridge" ] || exit 0',
    '[ -x "$runtime" ] || runtime=$(command -v node 2>/dev/null) || exit 0',
    ...(platform === 'linux' ? HOOK_HOST_LINES : []),
    'ELECTRON_RUN_AS_NODE=1 exec "$runtime" "$bridge" "$@"',
    '',
  ].join('\n');
}

/**
 * Linux: a hook event goes to the hook host (hook-host.ts) when one runs, by curl over its private
 * socket, so no Node starts for it (#53). Only `hook <cli> [--wait N]` as Connect writes it. The
 * event is read first, so that when the host is not there (curl: 7, no connection; 22, refused
 * before doing anything; 28, no answer to the connection) `bridge.js hook` gets it whole and
 * starts a host for the next one. Any other end (the host ran it) prints what the host sent.
 */
const HOOK_HOST_LINES = [
  'fast=',
  'if [ "$1" = hook ] && command -v curl >/dev/null 2>&1; then',
  '  case "$2" in \'\'|*[!a-z0-9-]*) ;; *) fast=1 ;; esac',
  '  wait=',
  '  if [ "$#" -eq 4 ] && [ "$3" = --wait ]; then case "$4" in \'\'|*[!0-9]*) fast= ;; *) wait=$4 ;; esac',
  '  elif [ "$#" -ne 2 ]; then fast=',
  '  fi',
  'fi',
  'if [ -n "$fast" ]; then',
  `  home=\${ASSISTANT_CARDS_HOME:-$HOME/.config/assistant-cards}`,
  `  sock=$home/${HOOK_HOST_DIR}/${HOOK_HOST_SOCKET}`,
  '  input=$(cat)',
  // A socket this user owns was made by a process of this user, the only one that can listen on it.
  '  if [ -S "$sock" ] && [ -O "$sock" ]; then',
  '    curl -sf --connect-timeout 2 --unix-socket "$sock" -H \'Expect:\' -H \'Content-Type: application/json\' -H "X-Hook-Pid: $$" -H "X-Bridge: $bridge" --data-binary @- "http://hooks/hook/$2?wait=$wait" <<EOF',
  '$input',
  'EOF',
  '    case $? in 7|22|28) ;; *) exit 0 ;; esac',
  '  fi',
  `  ELECTRON_RUN_AS_NODE=1 ${HOOK_HOST_ENV}=start exec "$runtime" "$bridge" "$@" <<EOF`,
  '$input',
  'EOF',
  'fi',
];

export interface InstallFacts extends LauncherFacts {
  /** The extension's dist/bridge.js (it may not exist in a build without the bridge). */
  bridgeSource: string;
}

export interface Installed {
  /** The launcher's path: what the CLIs' settings run. */
  launcher: string;
  /** The files written this time (none when everything was up to date). */
  written: string[];
  /** False when the extension has no dist/bridge.js to copy (the launcher then exits 0 quietly). */
  bridge: boolean;
}

/** Writes `text` to `file` only when it differs, through a temporary file and a rename (other windows may write it too). */
async function writeIfDifferent(file: string, content: Buffer, mode: number): Promise<boolean> {
  const now = await fs.readFile(file).catch(() => undefined);
  if (now && now.equals(content)) {
    const st = await fs.stat(file);
    if ((st.mode & 0o777) !== mode) await fs.chmod(file, mode);
    return false;
  }
  await writeWhole(file, content, mode);
  return true;
}

/** Puts the launcher and bridge.js in `binDir`, writing only what changed. */
export async function installHook(facts: InstallFacts): Promise<Installed> {
  const { binDir, bridgeSource, platform } = facts;
  await fs.mkdir(binDir, { recursive: true });
  const written: string[] = [];
  const bridge = await fs.readFile(bridgeSource).catch(() => undefined);
  if (bridge) {
    const to = path.join(binDir, BRIDGE_FILE);
    if (await writeIfDifferent(to, bridge, 0o644)) written.push(to);
  }
  const launcher = path.join(binDir, launcherName(platform));
  if (await writeIfDifferent(launcher, Buffer.from(launcherText(facts), 'utf8'), 0o755)) written.push(launcher);
  return { launcher, written, bridge: !!bridge };
}

/** True when a launcher was installed before (a Connect ran on this computer). */
export async function hookInstalled(binDir: string, platform: NodeJS.Platform): Promise<boolean> {
  return fs.access(path.join(binDir, launcherName(platform)), fsc.F_OK).then(() => true, () => false);
}

/** `<home>/bin`. */
export const binDirOf = (home: string): string => path.join(home, BIN_DIR);
