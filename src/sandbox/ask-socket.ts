// The asking surface also on a Unix socket in a folder only this user may enter (#51 F1, #53): on
// it, the folder's permissions say whom a hook talks to, so the hook sends its card in its first
// call with no proof round before it. Windows has no such folder for a named pipe: there the hooks
// keep the port and the service's proof over a nonce (service-proof.ts).
import { createServer, type Server } from 'node:http';
import { rmSync } from 'node:fs';
import { platform } from 'node:process';

/** The socket's name in the folder (the local service's home, or the sandbox's run folder). */
export const ASK_SOCKET_NAME = 'ask.sock';
/** A Unix socket's path has at most 108 bytes (104 on macOS): longer, the port and the proof serve. */
const MAX_SOCKET_PATH = 100;

/**
 * Listens on `file` with the same handler as the port (every route, the same checks); undefined
 * where a socket cannot serve (Windows, a path too long). A stale file of a run that ended is
 * removed first: the folder is this user's alone and the service's lock says it is the one run.
 */
export async function listenOnAskSocket(emitTo: Server, file: string): Promise<Server | undefined> {
  if (platform === 'win32' || Buffer.byteLength(file) > MAX_SOCKET_PATH) return undefined;
  rmSync(file, { force: true });
  const server = createServer((req, res) => { emitTo.emit('request', req, res); });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => { server.off('error', reject); resolve(); });
  });
  return server;
}

/** Stops listening and removes the file. */
export async function closeAskSocket(server: Server | undefined, file: string): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(file, { force: true });
}
