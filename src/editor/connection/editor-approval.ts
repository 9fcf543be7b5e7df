// The editor's side of a sign-in to the person's local service (#51 F2): what asks (the app, the
// computer, the scopes) and the person's decision, sent with the owner key from service.json.
// The key goes only to the process that announced itself, after it proved it holds the ask key
// (src/bridge/service-proof.ts), so a program on the port of a dead service gets neither.
// No `vscode` here: tests run it in plain Node.
import * as http from 'node:http';
import { processGone } from '../../bridge/process-alive';
import { newNonce, PROOF_PATH, proofHolds } from '../../bridge/service-proof';
import type { ServiceState } from '../../bridge/service-state';

/** src/sandbox/auth/editor-approval-routes.ts */
const APPROVAL_PATH = '/_local/sign-ins';
const TIMEOUT_MS = 5_000;

export interface SignInAsking {
  userCode: string;
  app: { name: string; publisher: string; verified: boolean };
  machine: { id: string; name: string };
  scopes: string[];
}

function send(state: ServiceState, method: string, route: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  if (processGone(state.pid)) return Promise.reject(new Error('the local service has ended')); // l10n-ignore: the log's words, as the service's own are
  return new Promise((resolve, reject) => {
    const req = http.request(`${state.url}${route}`, { method, headers, signal: AbortSignal.timeout(TIMEOUT_MS) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function ownerCall(state: ServiceState, method: 'GET' | 'POST', route: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const nonce = newNonce();
  const proof = await send(state, 'GET', `${PROOF_PATH}?nonce=${nonce}`, {});
  if (proof.status !== 200 || !proofHolds(state.askKey, nonce, proof.text)) throw new Error(`the program at ${state.url} is not the local service (it did not prove its key)`); // l10n-ignore: the log's words, as the service's own are
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const res = await send(state, method, route, {
    authorization: `Bearer ${state.ownerKey}`, // l10n-ignore: not words for people
    ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
  }, payload);
  let json: Record<string, unknown> = {};
  try { json = JSON.parse(res.text) as Record<string, unknown>; } catch { /* not JSON */ }
  return { status: res.status, json };
}

/** What waits for the person's decision under `userCode`, or why nothing does (the service's words). */
export async function signInAsking(state: ServiceState, userCode: string): Promise<SignInAsking | { refused: string }> {
  const res = await ownerCall(state, 'GET', `${APPROVAL_PATH}/${encodeURIComponent(userCode.trim())}`);
  if (res.status !== 200) return { refused: typeof res.json.detail === 'string' ? res.json.detail : `the service answered ${res.status}` }; // l10n-ignore: the log's words, as the service's own are
  return res.json as unknown as SignInAsking;
}

/** The person's Allow or Deny; undefined when the service took it, else its words. */
export async function decideSignIn(state: ServiceState, userCode: string, allow: boolean): Promise<string | undefined> {
  const res = await ownerCall(state, 'POST', `${APPROVAL_PATH}/${encodeURIComponent(userCode.trim())}`, { allow });
  if (res.status === 200) return undefined;
  return typeof res.json.detail === 'string' ? res.json.detail : `the service answered ${res.status}`; // l10n-ignore: the log's words, as the service's own are
}
