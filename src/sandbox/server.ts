// Builds the sandbox's Fastify app: one SandboxContext, the sign-in side (auth/), the /v1 routes,
// the notice address, the control surface, and the hooks every answer passes through
// (faults, Service-Version, DPoP-Nonce, ETag/304, idempotency records, problem answers).
import { createHash } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { SERVICE_VERSION } from '../api/constants';
import { AuthService } from './auth';
import type { DeviceRecord } from './auth/store';
import { ManualServiceClock, RealClock } from './clock';
import type { Clock, SandboxContext } from './context';
import { registerCardPage } from './card-page';
import { registerAsk } from './ask-routes';
import { Asking } from './asking';
import { Sessions } from './sessions';
import { registerControl } from './control';
import { registerServiceProof } from './service-proof';
import { Faults, codeForStatus, omitted, type Fault } from './faults';
import { Received } from './received';
import { ChangeFeed } from './feed';
import { IdempotencyStore } from './idempotency';
import { Cards, HOLD_MS } from './lifecycle';
import { RateLimits } from './limits';
import { Notices } from './notices';
import { jsonTooDeep, MAX_JSON_DEPTH } from './json-depth';
import { OAuthRefusal, ProblemError, problemBody, sendProblem } from './problems';
import {
  allowedHosts, controlSecretMatches, hasBody, hostAllowed, isControl, isControlWrite, isJsonContentType, isPersonFormPost,
  loopbackBaseUrl, newControlSecret, originAllowed,
} from './request-guard';
import { answerClientError, frameworkStatus } from './client-errors';
import { PersonSessions } from './person-sessions';
import { runFinishers } from './request-state';
import { registerV1 } from './routes-v1';
import { v1Route } from './v1-route-table';
import { SandboxState } from './state';
import { MemoryStore, type SandboxStore } from './store/store';
import { Timeline } from './timeline';
import { cardUrl, type MachineNames } from './wire';
import { WrittenIdentities, type IdentityPlaces } from './identity-places';

export const KNOWN_SERVICE_VERSIONS = [SERVICE_VERSION];
const ME_ROUTE = v1Route('GET', '/v1/me');

/**
 * `sandbox`: the demo's and the tests' server, with the control surface (/_sandbox/...), faults,
 * the manual clock and reset. `service`: the person's local service (local-service.ts), which has
 * none of them at all, not registered rather than guarded, and allows sign-ins only in the editor.
 */
export type SandboxMode = 'sandbox' | 'service';

export interface SandboxOptions {
  mode?: SandboxMode;
  clock?: Clock;
  manualClock?: boolean;
  /** `{base_url}` to use instead of each request's Host header. */
  publicUrl?: string;
  /** Seed a person's computer, assistants and cards (see demo.ts). */
  demo?: boolean | { machineFile?: string; machineName?: string };
  /** Where POST /_sandbox/machines may write an identity file (besides the default path). */
  identityPlaces?: IdentityPlaces;
  /** A whole request (headers and body) must arrive within this; default 30 s. */
  requestTimeoutMs?: number;
  /** Open connections at most; default 256. */
  maxConnections?: number;
  /** The control surface's secret (control writes send `Authorization: Bearer <it>`); default a fresh random one. */
  controlSecret?: string;
  /** The asking surface's key; default a fresh random one. */
  askKey?: string;
  /** Where the state lives; default in memory (store/store.ts). The sandbox closes it when it stops. */
  store?: SandboxStore;
  /** Service mode: the key the person's editor allows sign-ins with (editor-approval.ts); default a fresh random one. */
  ownerKey?: string;
}

/** 30 s for a whole request: a slow partial body no longer holds a connection for ever. */
const REQUEST_TIMEOUT_MS = 30_000;
const MAX_CONNECTIONS = 256;
/** A connection silent this long is closed: longer than the longest feed wait (25 s). */
const IDLE_TIMEOUT_MS = 60_000;

export interface Sandbox {
  app: FastifyInstance;
  ctx: SandboxContext;
  store: SandboxStore;
  clock: Clock;
  auth: AuthService;
  state: SandboxState;
  cards: Cards;
  /** Assistants, agents, live sessions and their keys: their one writer. */
  sessions: Sessions;
  notices: Notices;
  feed: ChangeFeed;
  faults: Faults;
  timeline: Timeline;
  /** This run's control secret: every control write must send `Authorization: Bearer <it>`. */
  controlSecret: string;
  /** This run's ask key: assistants send it on /_ask/ (ask-routes.ts); it answers nothing. */
  askKey: string;
  mode: SandboxMode;
  /** Service mode only: the key the editor allows sign-ins with (editor-approval.ts). */
  ownerKey?: string;
  /** Every route served (method and path pattern), known once the app is ready: for the fuzz test. */
  routes: { method: string; url: string }[];
  /** Back to the state it started with (the demo seeded again when started with it). */
  reset(): Promise<void>;
  /** Service mode: told of each sign-in the person allowed (local-service.ts notes it for every window). */
  onSignedIn?: (device: DeviceRecord) => void;
  /** Set by index.ts: runs after reset (demo seeding needs the address). */
  afterReset?: () => Promise<void>;
  stop(): void;
}

const faultOf = new WeakMap<FastifyRequest, Fault>();
const isV1 = (url: string) => url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');
const pathOf = (url: string) => url.split('?')[0] ?? url;

function etagOf(payload: string): string {
  return `"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

export function buildSandbox(opts: SandboxOptions = {}): Sandbox {
  const mode: SandboxMode = opts.mode ?? 'sandbox';
  const control = mode === 'sandbox';
  if (!control && (opts.manualClock || opts.clock?.advance)) throw new Error('the local service runs on real time: a manual clock belongs to the sandbox');
  const clock = opts.clock ?? (opts.manualClock ? new ManualServiceClock() : new RealClock());
  const publicUrl = opts.publicUrl?.replace(/\/+$/, '');
  const ctx: SandboxContext = {
    clock,
    // The port is the socket's, never the Host header's: any caller may write that header.
    baseUrl: (req) => publicUrl ?? loopbackBaseUrl(req.headers.host, req.socket.localPort ?? 0),
    person: { userId: 'usr_sandbox-person', workspaceId: 'ws_sandbox-workspace' },
    identityPlaces: opts.identityPlaces ?? {},
    identitiesWritten: new WrittenIdentities(),
  };
  const requestTimeout = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // No trustProxy: X-Forwarded-* would let any caller choose the {base_url} written into identity
  // files and links. Behind a proxy, --public-url says the address.
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    clientErrorHandler: answerClientError,
    frameworkErrors: (err, req, res) => {
      const reply = res as unknown as FastifyReply;
      const status = frameworkStatus(err.code);
      const detail = status === 414 ? 'A part of the path is too long.' : 'The address could not be read.';
      if (isV1(req.url)) return void sendProblem(reply, publicUrl ?? 'http://127.0.0.1', 'invalid', detail, { errors: [{ field: 'path', reason: detail }], status });
      return void reply.code(status).send({ code: 'invalid', detail });
    },
    serverFactory: (handler: RequestListener) => {
      const server = createServer({
        requestTimeout,
        headersTimeout: requestTimeout,
        keepAliveTimeout: 5_000,
        // Node checks request timeouts on this interval (30 s by default): no longer than the timeout.
        connectionsCheckingInterval: Math.min(1_000, requestTimeout),
      }, handler);
      server.setTimeout(IDLE_TIMEOUT_MS);
      return server;
    },
  });
  app.server.maxConnections = opts.maxConnections ?? MAX_CONNECTIONS;
  const store = opts.store ?? new MemoryStore();
  const auth = new AuthService(ctx, store);
  const state = new SandboxState(store);
  const timeline = new Timeline(clock, () => {
    // A timer's work (a hold's end, a Later's return) has no reply to fail: said, and tried again at the next commit.
    try { store.commit(); } catch (err) { console.error('sandbox:', err instanceof Error ? err.message : err); }
  });
  const feed = new ChangeFeed(state);
  const faults = new Faults();
  const received = new Received();
  const limits = new RateLimits(() => clock.now());
  const idem = new IdempotencyStore(() => clock.now(), store.table('idempotency'));
  let linkBase = publicUrl ?? 'http://127.0.0.1';
  const cards = new Cards(state, clock, timeline, feed, (card) => cardUrl(linkBase, card));
  const notices = new Notices(state, cards, clock);
  const sessions = new Sessions(state, clock);
  cards.resumeTimers();
  const machines: MachineNames = (id) => {
    const m = auth.machines.get(id);
    return m ? { id: m.id, name: m.name } : undefined;
  };
  let closing = false;
  const routes: Sandbox['routes'] = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url });
  });

  // JSON bodies: an empty body is no body (undo, back, take-back have optional ones).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    if (jsonTooDeep(text)) {
      const reason = `nested more than ${MAX_JSON_DEPTH} deep`;
      return done(new ProblemError('invalid', `The body is ${reason}.`, { errors: [{ field: 'body', reason }] }), undefined);
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ProblemError('invalid', 'The body is not valid JSON.', { errors: [{ field: 'body', reason: 'not valid JSON' }] }), undefined);
    }
  });

  // First of all: is this request for us, from us? (request-guard.ts says why.)
  const allowed = allowedHosts(publicUrl);
  const controlSecret = opts.controlSecret ?? newControlSecret();
  app.addHook('onRequest', async (req, reply) => {
    // The route matched, not the raw URL: /%5Fsandbox/reset reaches /_sandbox/reset too.
    const route = req.routeOptions.url ?? pathOf(req.url);
    const refuse = (status: 403 | 415, detail: string, field: string) => {
      if (isV1(req.url)) {
        return sendProblem(reply, publicUrl ?? 'http://127.0.0.1', status === 415 ? 'invalid' : 'forbidden', detail, { errors: [{ field, reason: detail }], status });
      }
      return reply.code(status).send({ code: status === 415 ? 'invalid' : 'forbidden', detail });
    };
    if (!hostAllowed(req.headers.host, allowed)) {
      return refuse(403, 'This sandbox answers only at its own address (start it with --public-url to serve another).', 'Host');
    }
    const control = isControl(route);
    if ((control || isPersonFormPost(req.method, route)) && !originAllowed(req.headers.origin, allowed)) {
      return refuse(403, 'Requests from another site are refused here.', 'Origin');
    }
    // Any other declared type is refused even when empty: an empty cross-site form post is one.
    const type = req.headers['content-type'];
    if (control && (type !== undefined ? !isJsonContentType(type) : hasBody(req.headers))) {
      return refuse(415, 'The control surface takes application/json only.', 'Content-Type');
    }
    if (isControlWrite(req.method, route) && !controlSecretMatches(req.headers.authorization, controlSecret)) {
      reply.header('WWW-Authenticate', 'Bearer realm="sandbox-control"');
      return reply.code(401).send({ code: 'forbidden', detail: 'Control writes need this run\'s control secret: Authorization: Bearer <secret> (printed when the sandbox started).' });
    }
    return undefined;
  });

  app.addHook('onRequest', async (req, reply) => {
    linkBase = ctx.baseUrl(req);
    // The local service has no faults to inject and keeps no list of what it received.
    if (control) received.note(req, clock.now());
    const fault = control ? faults.take(req) : undefined;
    if (fault) {
      faultOf.set(req, fault);
      if (fault.status !== undefined) {
        const code = codeForStatus(fault.status, fault.code);
        if (fault.retryAfter !== undefined) reply.header('Retry-After', String(fault.retryAfter));
        else if (fault.status === 429) reply.header('Retry-After', '1');
        const body = { ...problemBody(ctx.baseUrl(req), code, `Injected fault (${fault.status}).`), status: fault.status };
        return reply.code(fault.status).header('content-type', 'application/problem+json').send(body);
      }
    }
    timeline.runDue();
    if (isV1(req.url)) {
      const pinned = req.headers['service-version'];
      if (pinned !== undefined && (Array.isArray(pinned) || !KNOWN_SERVICE_VERSIONS.includes(pinned))) {
        throw new ProblemError('invalid', `Service-Version must be one of ${KNOWN_SERVICE_VERSIONS.join(', ')}.`, {
          errors: [{ field: 'Service-Version', reason: `unknown version; known: ${KNOWN_SERVICE_VERSIONS.join(', ')}` }],
        });
      }
    }
    return undefined;
  });

  app.addHook('onSend', async (req, reply, payload) => {
    let out = payload;
    // Its own time, as any service's Date says (RFC 9110): a client whose proof was refused for
    // its time corrects from it. Node's own Date is this computer's, wrong after a jump or on a
    // manual clock.
    reply.header('Date', new Date(clock.now()).toUTCString());
    if (isV1(req.url)) {
      reply.header('Service-Version', SERVICE_VERSION);
      reply.header('DPoP-Nonce', auth.currentNonce());
      if (req.method === 'GET' && reply.statusCode === 200 && typeof payload === 'string') {
        const etag = etagOf(payload);
        reply.header('ETag', etag);
        if (etagMatches(req.headers['if-none-match'], etag)) {
          reply.code(304);
          reply.removeHeader('content-type');
          reply.removeHeader('content-length');
          out = '';
        }
      }
    }
    const fault = faultOf.get(req);
    if (fault?.omit) out = omitted(pathOf(req.url), reply.statusCode, out, fault.omit);
    // The work is done; its finish (the idempotent answer, the card's write lock) may be held.
    const finish = () => runFinishers(req, reply.statusCode, payload, String(reply.getHeader('content-type') ?? 'application/json'));
    if (fault?.delayMs) await faults.hold(fault.delayMs, finish);
    else finish();
    // What this request changed is on disk before its answer leaves (a no-op in memory).
    try {
      store.commit();
    } catch (err) {
      console.error('sandbox:', err instanceof Error ? err.message : err);
      reply.code(503).header('content-type', 'application/problem+json');
      return JSON.stringify({ ...problemBody(ctx.baseUrl(req), 'server_error', err instanceof Error ? err.message : String(err)), status: 503 });
    }
    if (fault?.drop) {
      // The work is done and recorded; the answer is lost on the way.
      req.raw.socket?.destroy();
    }
    return out;
  });

  app.setErrorHandler(async (err: FastifyError | ProblemError | OAuthRefusal, req, reply) => {
    const base = ctx.baseUrl(req);
    if (err instanceof ProblemError) return sendProblem(reply, base, err.code, err.detail, err.extra);
    if (err instanceof OAuthRefusal) {
      if (err.wwwAuthenticate) reply.header('WWW-Authenticate', err.wwwAuthenticate);
      return reply.code(err.status).send({ error: err.error, error_description: err.description });
    }
    const status = (err as FastifyError).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      const reason = status === 413 ? 'the body is too large (1 MB at most)' : status === 415 ? 'send application/json' : err.message;
      // 413 and 415 keep their status; the nearest code of the enum names them.
      const keep = status === 413 || status === 415 || status === 414 ? { status } : {};
      return sendProblem(reply, base, 'invalid', `The request could not be read: ${reason}.`, { errors: [{ field: 'body', reason }], ...keep });
    }
    console.error('sandbox: unexpected error', err);
    return sendProblem(reply, base, 'server_error', 'The sandbox failed unexpectedly.');
  });

  app.setNotFoundHandler(async (req, reply) => {
    if (isV1(req.url)) return sendProblem(reply, ctx.baseUrl(req), 'not_found', `No route ${req.method} ${pathOf(req.url)}.`);
    return reply.code(404).send({ code: 'not_found', detail: `No route ${req.method} ${pathOf(req.url)}.` });
  });

  // GET /v1/me is served by the sign-in side; its read and per-person limits are counted here.
  auth.meGuard = (_req, grant) => limits.take(grant.id, grant.userId, ME_ROUTE.classes);
  const ownerKey = control ? undefined : opts.ownerKey ?? newControlSecret();
  auth.register(app, ownerKey === undefined ? { control: true } : { control: false, ownerKey, signedIn: (device) => sandbox.onSignedIn?.(device) });
  const personSessions = new PersonSessions(() => clock.now());
  registerV1(app, {
    ctx,
    authenticate: (req, scope) => auth.authenticate(req, scope),
    state, cards, feed, limits, idem, timeline, machines,
    pageTickets: personSessions,
    closing: () => closing,
  });
  notices.register(app);
  registerCardPage(app, ctx, cards, personSessions);
  const askKey = opts.askKey ?? newControlSecret();
  const asking = new Asking(state, cards, sessions, feed);
  registerAsk(app, {
    state, cards, asking, sessions, clock, askKey,
    // The computer named when the sandbox set it up, else the newest it set up (the demo's, or
    // the one `npm start` made): the assistants that ask here run on this computer.
    machineFor: (named) => (named !== undefined && auth.machines.has(named) ? named : [...auth.machines.keys()].pop()),
  });

  registerServiceProof(app, askKey);

  const sandbox: Sandbox = {
    app, ctx, store, clock, auth, state, cards, sessions, notices, feed, faults, timeline, routes, controlSecret, askKey, mode,
    ...(ownerKey !== undefined ? { ownerKey } : {}),
    async reset() {
      timeline.clear();
      state.clear();
      sessions.clear();
      cards.setHold(HOLD_MS);
      auth.reset();
      limits.reset();
      idem.reset();
      faults.reset();
      received.reset();
      personSessions.reset();
      feed.wakeAll();
      if (sandbox.afterReset) await sandbox.afterReset();
      store.commit();
    },
    stop() {
      closing = true;
      ctx.identitiesWritten?.forgetAddresses();
      feed.wakeAll();
      timeline.stop();
    },
  };
  // The control surface is the sandbox's plug-in: the local service never registers it (F7).
  if (control) registerControl(app, { ctx, state, cards, asking, sessions, notices, faults, received, clock, machines, reset: () => sandbox.reset() });
  return sandbox;
}
