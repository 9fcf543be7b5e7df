// The client core's link to the service: one transport, the HTTP client and the OAuth endpoints
// sharing its nonces and the service's time, and the sign-in of this service and computer (read
// lazily: the identity file may appear later). The session builds its link here; a test that
// needs the raw client builds a link of its own the same way, as another window would.
import { ApiClient, NonceStore } from '../api/client';
import type { RequestAuth } from '../api/client';
import { createTransport } from '../api/http';
import type { HttpTransport, TransportOptions } from '../api/http';
import type { Clock, Logger, Timers } from '../api/runtime';
import { ServerTime } from '../api/server-time';
import { DpopKey } from '../auth/dpop';
import { FileLock } from '../auth/file-lock';
import { defaultMachineFile, identityFileExposure, readMachineIdentity } from '../auth/machine';
import { OAuthEndpoints } from '../auth/oauth';
import type { SecretStore } from '../auth/secret-store';
import { dropLegacySignIn, signInSlot } from '../auth/sign-in-slot';
import { TokenSet } from '../auth/token-set';

export type RequestObserver = (info: { method: string; path: string; waits: boolean; byPerson?: boolean }) => void;

export interface ServiceClientOptions {
  baseUrl: string;
  secretStore: SecretStore;
  machineFile?: string;
  /** Holds the refresh lock shared by the windows. */
  lockDir: string;
  clock: Clock;
  timers: Timers;
  /** Already redacting. */
  logger: Logger;
  clientId?: string;
  appVersion?: string;
  transport?: HttpTransport;
  transportOptions?: TransportOptions;
  onRequest?: RequestObserver;
  random?: () => number;
}

export interface ServiceClient {
  readonly transport: HttpTransport;
  readonly api: ApiClient;
  readonly endpoints: OAuthEndpoints;
  /** Proofs, the attestation and token lifetimes run on the service's time (corrected on refusal). */
  readonly serverTime: ServerTime;
  /** The computer identity file (the default is looked up at each use, as the environment says). */
  readonly machineFile: string;
  /** The sign-in; rejects with NotSetUpError while the computer has no identity file. */
  tokenSet(): Promise<TokenSet>;
  /** The sign-in once read, else undefined. */
  readonly tokens: TokenSet | undefined;
}

export function createServiceClient(o: ServiceClientOptions): ServiceClient {
  const transport = o.transport ?? createTransport(o.transportOptions);
  const nonces = new NonceStore();
  const serverTime = new ServerTime(o.clock);
  const machineFile = () => o.machineFile ?? defaultMachineFile();
  const userAgent = `assistant-cards-vscode/${o.appVersion ?? '0.0.0'} (node ${process.version}; ${process.platform})`;
  const endpoints = new OAuthEndpoints({
    baseUrl: o.baseUrl, clientId: o.clientId ?? 'assistant-cards-vscode', transport,
    nonces, clock: serverTime, userAgent, onRequest: o.onRequest,
  });
  let tokens: TokenSet | undefined;
  let tokensReady: Promise<TokenSet> | undefined;
  const tokenSet = (): Promise<TokenSet> => {
    tokensReady ??= (async () => {
      // The sign-in belongs to this service and this computer (see sign-in-slot.ts).
      const file = machineFile();
      const identity = await readMachineIdentity(file);
      const exposed = await identityFileExposure(file);
      if (exposed) o.logger.warn(exposed);
      const slot = signInSlot(o.baseUrl, identity.id);
      await dropLegacySignIn(o.secretStore, o.logger);
      const lock = FileLock.in(o.lockDir, slot.lockName);
      const key = await DpopKey.loadOrCreate(o.secretStore, slot.dpopKeyKey, lock);
      tokens = new TokenSet({ store: o.secretStore, slot, endpoints, key, clock: serverTime, logger: o.logger, lock });
      return tokens;
    })();
    // A missing identity file is not remembered: setting the computer up later must work.
    tokensReady.catch(() => {
      tokensReady = undefined;
    });
    return tokensReady;
  };
  const auth: RequestAuth = {
    accessToken: async () => (await tokenSet()).accessToken(),
    renewAfterRejection: async (t) => (await tokenSet()).renewAfterRejection(t),
    proof: async (htm, url, token, nonce) => (await tokenSet()).proof(htm, url, token, nonce),
  };
  const api = new ApiClient({
    baseUrl: o.baseUrl, transport, auth, nonces, clock: o.clock, timers: o.timers, logger: o.logger,
    userAgent, random: o.random, onRequest: o.onRequest, serverTime,
  });
  return {
    transport, api, endpoints, serverTime, tokenSet,
    get machineFile() {
      return machineFile();
    },
    get tokens() {
      return tokens;
    },
  };
}
