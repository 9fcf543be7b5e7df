// Test helpers for the sandbox: keys, DPoP proofs (jose), computer attestations, form posts, and
// signIn(): the real device flow over HTTP, approved through the control surface, giving a
// `request()` that sends DPoP-proved calls with nonce handling.
import { createHash, createPrivateKey, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { tmpdir } from 'node:os';
import Fastify from 'fastify';
import { AuthService } from '../../src/sandbox/auth';
import { startSandbox as startSandboxItself, type RunningSandbox, type StartOptions } from '../../src/sandbox/index';
import type { SandboxContext } from '../../src/sandbox/context';
import { OAuthRefusal, ProblemError, sendProblem } from '../../src/sandbox/problems';
import { ManualClock } from '../kit/clock';

import type * as JoseModule from 'jose' with { 'resolution-mode': 'import' };

type Jose = typeof JoseModule;
let joseLoading: Promise<Jose> | undefined;
/** jose 6 is an ES module: loaded once with a dynamic import. */
export function jose(): Promise<Jose> {
  joseLoading ??= import('jose');
  return joseLoading;
}

export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export interface TestKey {
  privateKey: KeyObject;
  publicJwk: PublicJwk;
  /** RFC 7638 thumbprint. */
  jkt: string;
}

export function thumbprint(jwk: PublicJwk): string {
  return createHash('sha256').update(`{"crv":"P-256","kty":"EC","x":"${jwk.x}","y":"${jwk.y}"}`).digest('base64url');
}

export function makeKey(): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const j = publicKey.export({ format: 'jwk' });
  const publicJwk: PublicJwk = { kty: 'EC', crv: 'P-256', x: j.x!, y: j.y! };
  return { privateKey, publicJwk, jkt: thumbprint(publicJwk) };
}

export function keyFromPrivateJwk(jwk: { x: string; y: string; d: string }): TestKey {
  const privateKey = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d }, format: 'jwk' });
  const publicJwk: PublicJwk = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  return { privateKey, publicJwk, jkt: thumbprint(publicJwk) };
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Any compact ES256 JWS, header and payload as given: for proofs that break one rule on purpose. */
export function signRaw(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const sig = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${sig.toString('base64url')}`;
}

export function ath(accessToken: string): string {
  return createHash('sha256').update(accessToken).digest('base64url');
}

export interface ProofInput {
  htm: string;
  htu: string;
  nonce?: string;
  accessToken?: string;
  /** Seconds; default from `now`. */
  iat?: number;
  now?: () => number;
  jti?: string;
}

/** A DPoP proof made by jose, as a real client would. */
export async function dpopProof(key: TestKey, p: ProofInput): Promise<string> {
  const { SignJWT } = await jose();
  const iat = p.iat ?? Math.floor((p.now ?? Date.now)() / 1000);
  return new SignJWT({
    htm: p.htm,
    htu: p.htu,
    ...(p.nonce !== undefined ? { nonce: p.nonce } : {}),
    ...(p.accessToken !== undefined ? { ath: ath(p.accessToken) } : {}),
  })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: { ...key.publicJwk } })
    .setJti(p.jti ?? randomUUID())
    .setIssuedAt(iat)
    .sign(key.privateKey);
}

export interface Machine {
  id: string;
  name: string;
  privateJwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string; d: string };
}

/** The computer attestation of DESIGN, signed with the computer's key. */
export function attestation(
  machine: Machine,
  opts: { aud: string; jkt: string; now?: () => number; iat?: number; exp?: number; header?: Record<string, unknown>; claims?: Record<string, unknown> },
): string {
  const key = keyFromPrivateJwk(machine.privateJwk);
  const iat = opts.iat ?? Math.floor((opts.now ?? Date.now)() / 1000);
  return signRaw(
    { alg: 'ES256', typ: 'machine-attestation+jwt', kid: machine.id, ...opts.header },
    { iss: machine.id, aud: opts.aud, jkt: opts.jkt, iat, exp: opts.exp ?? iat + 300, jti: randomUUID(), ...opts.claims },
    key.privateKey,
  );
}

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  text: string;
}

/** A response read as the tests look at it: status, headers, text and its JSON (undefined when not JSON). */
async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** POST a form (application/x-www-form-urlencoded). */
export async function postForm(url: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<Answer> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
  return answerOf(await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, redirect: 'manual' }));
}

/** The control secret of each in-process sandbox started through `startSandbox` below, by origin. */
const controlSecrets = new Map<string, string>();

/** `startSandbox` of src/sandbox, noting its control secret so `call` can send it. */
export async function startSandbox(opts: StartOptions = {}): Promise<RunningSandbox> {
  const sb = await startSandboxItself(opts);
  controlSecrets.set(new URL(sb.url).origin, sb.controlSecret);
  controlSecrets.set(`http://127.0.0.1:${sb.port}`, sb.controlSecret);
  return sb;
}

/** Notes the control secret of a sandbox started elsewhere (a process of its own) for `call`. */
export function noteControlSecret(url: string, secret: string): void {
  controlSecrets.set(new URL(url).origin, secret);
}

/** `Authorization: Bearer <secret>` for a control route of a sandbox started here; else nothing. */
export function controlAuth(url: string): Record<string, string> {
  const u = new URL(url);
  const secret = u.pathname.startsWith('/_sandbox') ? controlSecrets.get(u.origin) : undefined;
  return secret ? { authorization: `Bearer ${secret}` } : {};
}

/** A JSON call; on the control surface of a sandbox started here it carries the control secret (unless `headers` name another authorization). */
export async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return answerOf(
    await fetch(url, {
      method,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...controlAuth(url), ...headers },
      redirect: 'manual',
    }),
  );
}

/**
 * Answers and hand-overs of the sandbox `sb` are held `ms` from now on (POST /_sandbox/hold with
 * its control secret); a refusal fails the test.
 */
export async function setHold(sb: Pick<RunningSandbox, 'url' | 'controlSecret'>, ms: number): Promise<void> {
  const r = await fetch(`${sb.url}/_sandbox/hold`, { method: 'POST', headers: { authorization: `Bearer ${sb.controlSecret}`, 'content-type': 'application/json' }, body: JSON.stringify({ ms }) });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`POST /_sandbox/hold ${ms}: ${r.status} ${text}`);
}

/** A card as the person's API lists it, the fields the asking side's tests read. */
export interface WireCard {
  id: string; version: number; kind: string; title: string; summary?: string; status: string;
  blocking?: boolean; closedBy?: string; options?: { id: string; label: string }[];
}

export async function makeMachine(baseUrl: string, name = 'test-computer'): Promise<Machine> {
  const res = await call('POST', `${baseUrl}/_sandbox/machines`, { name });
  if (res.status !== 201) throw new Error(`machine: ${res.status} ${res.text}`);
  return res.json as Machine;
}

/** The nonce the token endpoint hands out (via its 400 use_dpop_nonce answer to a proof without one). */
export async function tokenNonce(baseUrl: string, key: TestKey, now?: () => number): Promise<string> {
  const proof = await dpopProof(key, { htm: 'POST', htu: `${baseUrl}/oauth/token`, ...(now ? { now } : {}) });
  const res = await postForm(`${baseUrl}/oauth/token`, { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'assistant-cards-vscode' }, { DPoP: proof });
  const nonce = res.headers.get('dpop-nonce');
  if (!nonce) throw new Error('no DPoP-Nonce from the token endpoint');
  return nonce;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

export interface SignedIn {
  accessToken: string;
  refreshToken: string;
  scope: string;
  key: TestKey;
  machine: Machine;
  clientId: string;
  /** The latest DPoP-Nonce seen. */
  nonce: string;
  /** A DPoP-proved call to `{base}{path}` (path may hold a query), retried once on use_dpop_nonce. */
  request(method: string, path: string, opts?: RequestOptions): Promise<Answer>;
  /** Refresh with the current refresh token (rotation: both tokens change). */
  refresh(): Promise<Answer>;
}

export interface SignInOptions {
  scopes?: string[];
  machineName?: string;
  machine?: Machine;
  key?: TestKey;
  approveScopes?: string[];
  clientId?: string;
  /** Approve as this person (apps' owner/testers rules). */
  as?: string;
  /** The sandbox's clock, for proof and attestation times under a manual clock. */
  now?: () => number;
}

/** Starts a device sign-in (attestation, DPoP key); returns the device answer. */
export async function startDevice(baseUrl: string, o: { key: TestKey; machine: Machine; clientId?: string; scopes?: string[]; now?: () => number }): Promise<Answer> {
  return postForm(`${baseUrl}/oauth/device`, {
    client_id: o.clientId ?? 'assistant-cards-vscode',
    ...(o.scopes ? { scope: o.scopes.join(' ') } : {}),
    resource: `${baseUrl}/v1`,
    machine: o.machine.name,
    machine_attestation: attestation(o.machine, { aud: baseUrl, jkt: o.key.jkt, ...(o.now ? { now: o.now } : {}) }),
  });
}

/** The real device flow through HTTP: device, approval (control surface), token poll with DPoP + nonce. */
export async function signIn(baseUrl: string, opts: SignInOptions = {}): Promise<SignedIn> {
  const now = opts.now ?? Date.now;
  const key = opts.key ?? makeKey();
  const machine = opts.machine ?? (await makeMachine(baseUrl, opts.machineName ?? 'test-computer'));
  const clientId = opts.clientId ?? 'assistant-cards-vscode';
  const device = await startDevice(baseUrl, { key, machine, clientId, ...(opts.scopes ? { scopes: opts.scopes } : {}), now });
  if (device.status !== 200) throw new Error(`device: ${device.status} ${device.text}`);
  const approve = await call('POST', `${baseUrl}/_sandbox/device/approve`, {
    user_code: device.json.user_code,
    ...(opts.approveScopes ? { scopes: opts.approveScopes } : {}),
    ...(opts.as ? { as: opts.as } : {}),
  });
  if (approve.status !== 200) throw new Error(`approve: ${approve.status} ${approve.text}`);
  let nonce = await tokenNonce(baseUrl, key, now);
  const htuToken = `${baseUrl}/oauth/token`;
  const token = await postForm(
    htuToken,
    { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.json.device_code, client_id: clientId },
    { DPoP: await dpopProof(key, { htm: 'POST', htu: htuToken, nonce, now }) },
  );
  if (token.status !== 200) throw new Error(`token: ${token.status} ${token.text}`);
  nonce = token.headers.get('dpop-nonce') ?? nonce;

  const session: SignedIn = {
    accessToken: token.json.access_token,
    refreshToken: token.json.refresh_token,
    scope: token.json.scope,
    key,
    machine,
    clientId,
    nonce,
    async request(method, path, o = {}) {
      const url = `${baseUrl}${path}`;
      const htu = url.split(/[?#]/)[0]!;
      const once = async () => {
        const proof = await dpopProof(key, { htm: method, htu, nonce: session.nonce, accessToken: session.accessToken, now });
        const res = await call(method, url, o.body, { authorization: `DPoP ${session.accessToken}`, dpop: proof, ...o.headers });
        const fresh = res.headers.get('dpop-nonce');
        if (fresh) session.nonce = fresh;
        return res;
      };
      const first = await once();
      if (first.status === 401 && first.json?.error === 'use_dpop_nonce') return once();
      return first;
    },
    async refresh() {
      const send = async () =>
        postForm(
          htuToken,
          { grant_type: 'refresh_token', refresh_token: session.refreshToken, client_id: clientId },
          { DPoP: await dpopProof(key, { htm: 'POST', htu: htuToken, nonce: session.nonce, now }) },
        );
      let res = await send();
      const fresh = res.headers.get('dpop-nonce');
      if (fresh) session.nonce = fresh;
      if (res.status === 400 && res.json?.error === 'use_dpop_nonce') res = await send();
      if (res.status === 200) {
        session.accessToken = res.json.access_token;
        session.refreshToken = res.json.refresh_token;
      }
      return res;
    },
  };
  return session;
}

export interface AuthServer {
  url: string;
  clock: ManualClock;
  auth: AuthService;
  ctx: SandboxContext;
  close(): Promise<void>;
}

/**
 * Only the sign-in side on a small Fastify app (127.0.0.1, port 0), with a /v1/probe route per
 * scope check, for tests that must not depend on the rest of the sandbox.
 */
export async function startAuthServer(): Promise<AuthServer> {
  const clock = new ManualClock();
  const app = Fastify({ logger: false });
  const ctx: SandboxContext = {
    clock,
    baseUrl: (req) => `${req.protocol}://${req.host}`,
    person: { userId: 'usr_test-person', workspaceId: 'ws_test-workspace' },
    // Tests write identity files into their own temporary folders.
    identityPlaces: { workDir: tmpdir() },
  };
  const auth = new AuthService(ctx);
  app.setErrorHandler(async (err: Error, req, reply) => {
    if (err instanceof ProblemError) return sendProblem(reply, ctx.baseUrl(req), err.code, err.detail, err.extra);
    if (err instanceof OAuthRefusal) {
      if (err.wwwAuthenticate) reply.header('WWW-Authenticate', err.wwwAuthenticate);
      return reply.code(err.status).send({ error: err.error, error_description: err.description });
    }
    throw err;
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/v1/')) reply.header('DPoP-Nonce', auth.currentNonce());
    return payload;
  });
  auth.register(app);
  app.get<{ Querystring: { scope?: string } }>('/v1/probe', async (req) => {
    const grant = await auth.authenticate(req, (req.query.scope ?? 'any') as never);
    return { grantId: grant.id };
  });
  app.post('/v1/probe', async (req) => {
    const grant = await auth.authenticate(req, 'any');
    return { grantId: grant.id };
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, clock, auth, ctx, close: () => app.close() };
}
