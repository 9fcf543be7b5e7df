// The test kit: one world, one clock, one wait, for every plain-Node test (docs/decisions.md,
// "One test kit (#26)").
//
// - world.ts  `makeWorld()`: an in-process sandbox on the manual clock, this computer (identity
//             file, assistants 'api' and 'helper' with agents), `me` signed in over HTTP, `core()`
//             client cores on the same computer and clock, `signInCore` (the real device flow),
//             `advance`/`advanceUntil` (time with loopback work settled), `ctl`, `card`, `held`.
//             Also `CountingTransport`, `settle`, `key`, `answer`, `ALL_SCOPES`.
// - clock.ts  `ManualClock`: Clock and Timers in one. `advance` fires due timers in order
//             (synchronous, for pure schedule tests); `advanceSettled`/`advanceUntil` await a
//             `settle` between timers (a world's loopback requests). Its own time (`start`), or a
//             sandbox's (`time`): then `sb.advance` moves only the service's side, firing nothing.
// - clocks.ts the small clocks, so no test writes its own `{ now: () => … }`: `realClock`,
//             `realHoldClock`, `fixedClock(at)`, `offsetClock(clock, ms)`, `nowOf(clock)` (a `now`
//             option), `moveTo(manualClock, at)`, `immediateTimers(slept?)` (retries, no real wait).
// - until.ts  `until(what, probe)`: waits (real time) for a state, never for time. `until(probe)`
//             is the quick form for in-process state (3 ms polls, named by its source).
//             `quietFor(what, ms)`: the one fixed wait, for an absence only (nothing more said).
// - computer.ts `setUpComputer`: this computer and its assistants through any control caller
//             (the host world, test/editor/cards-helpers.ts, uses it with the sandbox process).
//
// The extension-host tests import `./until` and `./computer` directly (not this index: the world
// would bundle the sandbox into every host test). Protocol helpers for the sandbox's own tests
// (DPoP proofs, attestations, `signIn`, the sign-in-only server) stay in test/sandbox/helpers.ts.
export { ManualClock, type ManualClockOptions, type TimeSource } from './clock';
export { fixedClock, immediateTimers, moveTo, nowOf, offsetClock, realClock, realHoldClock } from './clocks';
export { setUpComputer, type ComputerSetUp, type ControlCall } from './computer';
export { quietFor, until } from './until';
export { ALL_SCOPES, answer, CountingTransport, key, makeWorld, settle, signInCore, type Logged, type World } from './world';
