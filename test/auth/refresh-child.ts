// A second "window" in its own process: opens the shared file store and lock folder, waits for
// "go" on stdin, then asks for an access token (refreshing when due) and reports the outcome.
import { NonceStore } from '../../src/api/client';
import { createTransport } from '../../src/api/http';
import { DpopKey } from '../../src/auth/dpop';
import { FileLock } from '../../src/auth/file-lock';
import { OAuthEndpoints } from '../../src/auth/oauth';
import { FileSecretStore } from '../../src/auth/secret-store';
import { signInSlot } from '../../src/auth/sign-in-slot';
import { TokenSet } from '../../src/auth/token-set';
import { fixedClock } from '../kit/clocks';

async function main() {
  const [storeFile, lockDir, baseUrl, nowMs, computerId] = process.argv.slice(2);
  const store = new FileSecretStore(storeFile!);
  const clock = fixedClock(Number(nowMs));
  const transport = createTransport();
  const endpoints = new OAuthEndpoints({ baseUrl: baseUrl!, clientId: 'assistant-cards-vscode', transport, nonces: new NonceStore(), clock, userAgent: 'refresh-child' });
  const slot = signInSlot(baseUrl!, computerId!);
  const key = await DpopKey.loadOrCreate(store, slot.dpopKeyKey);
  const tokens = new TokenSet({ store, slot, endpoints, key, clock, lock: FileLock.in(lockDir!, slot.lockName) });
  await tokens.load();
  process.stdout.write('ready\n');
  await new Promise<void>((r) => process.stdin.once('data', () => r()));
  try {
    const at = await tokens.accessToken();
    process.stdout.write(JSON.stringify({ ok: true, accessToken: at.slice(0, 6) }) + '\n');
  } catch (e) {
    process.stdout.write(JSON.stringify({ ok: false, error: String(e) }) + '\n');
  }
  await transport.close();
}
void main();
