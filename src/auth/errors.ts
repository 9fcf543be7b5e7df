// Sign-in failures the person can act on.
import { ClientError } from '../api/errors';

export type NotSetUpReason = 'missing' | 'unreadable' | 'invalid' | 'rejected';

/** This computer has no usable identity file, or the service does not know its key. */
export class NotSetUpError extends ClientError {
  readonly kind = 'not-set-up';
  constructor(readonly reason: NotSetUpReason, readonly path: string, readonly detail: string) {
    super(`This computer is not set up (${detail}). ${NotSetUpError.whatToDo(reason, path)}`);
    this.name = 'NotSetUpError';
  }
  /** What the person should do next, in words. */
  get whatToDo(): string {
    return NotSetUpError.whatToDo(this.reason, this.path);
  }
  static whatToDo(reason: NotSetUpReason, path: string): string {
    switch (reason) {
      case 'missing':
        return `Set this computer up with the service first; it writes the computer identity to ${path}, or point the setting assistantCards.machineFile at it.`;
      case 'unreadable':
        return `Check that ${path} can be read by your user, or point assistantCards.machineFile elsewhere.`;
      case 'invalid':
        return `The file ${path} is not a computer identity; set the computer up again to rewrite it.`;
      case 'rejected':
        return `The service does not know this computer's key; set the computer up again with this service (${path}).`;
    }
  }
}

export type DeviceFlowFailure = 'access_denied' | 'expired_token' | 'cancelled';

export class DeviceFlowError extends ClientError {
  readonly kind = 'device-flow';
  constructor(readonly reason: DeviceFlowFailure, detail?: string) {
    super(
      reason === 'access_denied'
        ? 'Sign-in was declined.'
        : reason === 'expired_token'
          ? 'The sign-in code expired before it was allowed. Sign in again.'
          : 'Sign-in was cancelled.',
    );
    this.name = 'DeviceFlowError';
    if (detail) this.message += ` (${detail})`;
  }
}

/**
 * Why this process ended the sign-in: the service refused the refresh token, or the answer to a
 * refresh was lost on the way (the token may have rotated, so it is never sent again).
 */
export type SignInEnd = 'refused' | 'renewal-lost';

/** The sign-in is gone (revoked, refresh refused, renewal lost, signed out elsewhere). */
export class SignedOutError extends ClientError {
  readonly kind = 'signed-out';
  constructor(detail = 'Not signed in.', readonly ended?: SignInEnd) {
    super(detail);
    this.name = 'SignedOutError';
  }
}

/** A token was about to go to an origin other than the one that issued it; nothing was sent. */
export class TokenOriginError extends ClientError {
  readonly kind = 'token-origin';
  constructor(readonly issuer: string, readonly target: string) {
    super(`Refused to send the sign-in of ${issuer} to ${target}.`);
    this.name = 'TokenOriginError';
  }
}
