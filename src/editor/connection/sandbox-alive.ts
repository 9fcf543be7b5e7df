// A local sandbox's address is called only while the sandbox's own process lives (#37). A sandbox
// started by another window, by `npm start`, or killed outright (SIGKILL: nothing blanks its
// address) leaves its port free for any program to take; a window that went on calling it sent
// the person's DPoP proofs and tokens to whoever bound it next, and could be shown that program's
// cards. The identity file a sandbox writes names the process serving its address
// (src/sandbox/machine-file.ts); every request to that address first asks whether the process is
// still there, a system call with no waiting, so no request leaves once it is gone. Then the
// file's address is blanked (if it is still that run's) and the window is told.
// No `vscode` here: the client core's transport is wrapped, and tests run it in plain Node.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { NetworkError } from '../../sync';
import { REFUSED_BEFORE_CONNECT, type HttpTransport } from '../../api/http';
import { type SandboxProcess, sandboxServing, withoutDeadAddress } from '../../shared/identity-address';
import { writeWholeSync } from '../../bridge/write-whole';
import { processGone } from '../../bridge/process-alive';

export type { SandboxProcess };

/**
 * The process the identity file names as serving `baseUrl`, when the file is a sandbox's and
 * names one on this computer; undefined otherwise (a real service, an older sandbox's file, a
 * file shared with another computer or container, whose pids mean nothing here).
 */
export function sandboxOf(file: string, baseUrl: string): SandboxProcess | undefined {
  let text: string;
  try { text = fs.readFileSync(file, 'utf8'); } catch { return undefined; }
  const p = sandboxServing(text, baseUrl);
  return p && p.host === os.hostname() ? p : undefined;
}

/**
 * A transport made by `make` that sends only while `sandbox` lives: asked before each request
 * and, through `beforeConnect`, before each new connection (a request queued on a connection the
 * sandbox's death dropped is sent again on a new one, which could reach whoever took the port).
 * The first look that finds it gone calls `gone` once; from then on nothing is sent, and each
 * request fails as never sent, with `words` (the editor's, in the display language) as its cause.
 */
export function whileSandboxLives(
  make: (beforeConnect: () => Error | undefined) => HttpTransport,
  sandbox: SandboxProcess,
  gone: () => void,
  words: string,
  isGone: (pid: number) => boolean = processGone,
): HttpTransport {
  let dead = false;
  const ended = (): boolean => {
    if (!dead && isGone(sandbox.pid)) { dead = true; gone(); }
    return dead;
  };
  const inner = make(() => (ended() ? Object.assign(new Error(words), { code: REFUSED_BEFORE_CONNECT }) : undefined));
  return {
    send: async (req) => {
      if (ended()) throw new NetworkError(req.url, words);
      return inner.send(req);
    },
    close: () => inner.close(),
  };
}

/** Blanks the address in the identity file if it still names the gone sandbox; true when it did. */
export function forgetDeadSandbox(file: string, baseUrl: string, sandbox: SandboxProcess): boolean {
  try {
    const blanked = withoutDeadAddress(fs.readFileSync(file, 'utf8'), baseUrl, sandbox.pid);
    if (!blanked) return false;
    writeWholeSync(file, blanked); // other windows read it
    return true;
  } catch {
    return false;
  }
}
