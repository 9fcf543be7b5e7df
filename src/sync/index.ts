// Public entry of the client core for the editor layer.
export type * from './contract';
export { GROUPS, LIVE_GROUPS } from './contract';
export { groupOfCard } from './card-model';
export { isFilterEmpty } from './card-filter';
// The one lifetime loop: the editor's DisposableBase owns one.
export { Lifetime } from './lifetime';
export { createClientCore } from './session';
export type { ClientCoreOptions } from './session';
export { UserGesture, Press, PressRefusedError, GESTURE_FRESH_MS } from './press';
export type { PressAction, PressResult, PressState, SeenCard } from './press';
// Each card action's rules (its request, hold, high stakes, the card it leaves): one table (what the person meets of it: shared/card-actions.ts).
export { ACTIONS, rowOf } from './actions-table';
export type { ActionRow, ActionType } from './actions-table';
export type { SecretStore } from '../auth/secret-store';
export { MemorySecretStore, FileSecretStore } from '../auth/secret-store';
export {
  ApiProblemError, OAuthRefusalError, MalformedResponseError, NetworkError, HighStakesError,
  VersionConflictError, ClientError,
} from '../api/errors';
export type { Clock, Timers, Logger } from '../api/runtime';
export { systemClock, systemTimers, redactingLogger } from '../api/runtime';
export { NotSetUpError, DeviceFlowError, SignedOutError } from '../auth/errors';
export { InsecureAddressError } from '../api/service-address';
export { identityFileExposure } from '../auth/machine';
export { isLight } from './card-filter';
// Terminal matching: the editor's terminals.ts gives the facts, these match them.
export { CachedProcessTable } from './process-table';
export { matchSessions } from './terminal-match';
export type { MatchedBy, SessionFacts, TerminalFacts } from './terminal-match';
// The Answers view's rows: who answered what, from where (answer-rows.ts).
export { isSearchEmpty, whoKey } from './answer-rows';
export type { AnswerGiven, AnswerRow, AnswerSearch, AnswerStep, Outcome, Who, WhoKey } from './answer-rows';
export { thisComputer } from './this-computer';
// Whose open count in the Assistants view a card's change moved.
export { openCountMovedFor } from './open-count';
