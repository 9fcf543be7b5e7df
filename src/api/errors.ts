// Every way a request can fail, as a typed error the editor can turn into a clear message.
import type { Card, Problem } from './schemas';

export abstract class ClientError extends Error {
  abstract readonly kind: string;
}

/** An RFC 9457 problem from /v1 (anything but sign-in refusals). */
export class ApiProblemError extends ClientError {
  readonly kind = 'problem';
  readonly code: string;
  readonly status: number;
  readonly detail: string;
  readonly title: string;
  readonly requestId: string;
  readonly url: string | undefined;
  readonly errors: { field: string; reason: string }[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  constructor(problem: Problem, readonly requestUrl: string, retryAfterSeconds?: number) {
    super(`${problem.code} (${problem.status}): ${problem.detail}`);
    this.name = 'ApiProblemError';
    this.code = problem.code;
    this.status = problem.status;
    this.detail = problem.detail;
    this.title = problem.title;
    this.requestId = problem.requestId;
    this.url = problem.url;
    this.errors = problem.errors;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** An OAuth refusal: 400 from the token/device endpoints, 401/403 with WWW-Authenticate on /v1. */
export class OAuthRefusalError extends ClientError {
  readonly kind = 'oauth';
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string | undefined,
    readonly requestUrl: string,
    /** `insufficient_scope`: the scope WWW-Authenticate names. */
    readonly scope?: string,
    /** The refusal's `Date` header: the service's time (see ServerTime). */
    readonly serverDate?: string,
  ) {
    super(`${error}${description ? `: ${description}` : ''} (${status})${OAuthRefusalError.missing(error, scope, description) ? `; missing scope ${OAuthRefusalError.missing(error, scope, description)}` : ''}`);
    this.name = 'OAuthRefusalError';
  }

  /** On `insufficient_scope`: the scope the sign-in lacks, from WWW-Authenticate or else the description. */
  get missingScope(): string | undefined {
    return OAuthRefusalError.missing(this.error, this.scope, this.description);
  }

  private static missing(error: string, scope: string | undefined, description: string | undefined): string | undefined {
    if (error !== 'insufficient_scope') return undefined;
    if (scope) return scope;
    return /\b([a-z]+:[a-z:]+)\b/.exec(description ?? '')?.[1];
  }
}

/** The service answered something we cannot read: bad JSON, wrong media type, wrong shape. */
export class MalformedResponseError extends ClientError {
  readonly kind = 'malformed';
  constructor(
    readonly reason: 'json' | 'content-type' | 'schema' | 'status' | 'too-large',
    readonly status: number,
    readonly requestUrl: string,
    readonly issues?: string,
  ) {
    super(`The service sent an answer that could not be read (${reason}, status ${status}) from ${requestUrl}${issues ? `: ${issues}` : ''}`);
    this.name = 'MalformedResponseError';
  }
}

/** No answer at all: refused connection, reset, timeout, DNS. */
export class NetworkError extends ClientError {
  readonly kind = 'network';
  constructor(
    readonly requestUrl: string,
    readonly causeMessage: string,
    /**
     * The request may have reached the service and only its answer was lost (a dropped or reset
     * connection, a timeout waiting for the answer), as opposed to never sent (no connection made).
     * What a repeat would do is then unknown: a rotated refresh token must not be sent again.
     */
    readonly mayHaveArrived = false,
  ) {
    super(`Could not reach the service (${causeMessage})`);
    this.name = 'NetworkError';
  }
}

/** Refused in the client before any request: high-stakes cards are answered in the service. */
export class HighStakesError extends ClientError {
  readonly kind = 'high-stakes';
  constructor(readonly cardId: string, readonly url: string | undefined) {
    super('This card is high stakes: open it in the service to answer it.');
    this.name = 'HighStakesError';
  }
}

/** The card changed after the version the person saw. Never resent: show `fresh`, ask again. */
export class VersionConflictError extends ClientError {
  readonly kind = 'version-conflict';
  constructor(readonly cardId: string, readonly fresh: Card | undefined, readonly problem: ApiProblemError) {
    super('The card changed since you saw it. Look at it again before answering.');
    this.name = 'VersionConflictError';
  }
}
