// The seams between the sandbox's parts: its clock, who is asking (a grant), and the problem
// answer every /v1 refusal uses. server.ts builds one SandboxContext and hands it to each part.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '../api/schemas';
import type { IdentityPlaces, WrittenIdentities } from './identity-places';

/** Milliseconds since the epoch. Real time, or a manual clock moved by /_sandbox/clock/advance. */
export interface Clock {
  now(): number;
  /** Only on a manual clock. */
  advance?(ms: number): number;
  /** Only on the real clock: forward by `ms` at once, then on with real time (tests). */
  jump?(ms: number): number;
  /** Called after the clock moves, so timed work (holds, Later, presence) can catch up. */
  onAdvance?(listener: () => void): void;
}

/** One sign-in of an app on a computer (or with no computer, reach `all`). */
export interface Grant {
  id: string; // apg_...
  userId: string;
  workspaceId: string;
  appId: string;
  clientId: string;
  appName: string;
  appVerified: boolean;
  scopes: Scope[];
  reach: 'machine' | 'all';
  machine?: { id: string; name: string };
  /** RFC 7638 thumbprint of the DPoP key the tokens are bound to; absent for bearer tokens. */
  jkt?: string;
  createdAt: number;
  expiresAt: number;
}

/** What a /v1 route knows about the caller once authentication passed. */
export interface Caller {
  grant: Grant;
}

export interface SandboxContext {
  clock: Clock;
  /** `{base_url}`: --public-url when given, else from the request's Host header. */
  baseUrl(req: FastifyRequest): string;
  person: { userId: string; workspaceId: string };
  /** Where POST /_sandbox/machines may write identity files (identity-places.ts). */
  identityPlaces: IdentityPlaces;
  /** The identity files this run wrote (their address is blanked when it stops). */
  identitiesWritten?: WrittenIdentities;
}

export type { FastifyReply, FastifyRequest };
