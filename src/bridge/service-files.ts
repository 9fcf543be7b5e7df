// The files of the person's local service (#51), in a folder of the bridge's home: one service per
// person on this computer. src/sandbox/local-service.ts writes them, the editor reads them.

export const LOCAL_SERVICE_FILES = {
  /** Its address, process, ask key and owner key: the editor reads it (0600). */
  state: 'service.json',
  /** Held while a service starts or runs: a second start finds the running one. */
  lock: 'service.lock',
  /** This computer's identity for the local service (sandbox-made). */
  machine: 'machine.json',
  /** Where a detached service writes what it says. */
  log: 'service.log',
  /** Why the last start failed, for the window that started it. */
  failed: 'start-failed.json',
  /** One JSON line per sign-in the person allowed: every signed-in window announces it. */
  signIns: 'sign-ins.jsonl',
  /** The port the last run listened on: the next takes it again when free (a sign-in names the address). */
  port: 'port',
  /** Present while the person stopped the service: no window starts it again by itself. */
  stopped: 'stopped-by-person',
  /**
   * The assistants' ask key, kept across starts (0600): the sessions and their keys outlive a
   * restart in the store, and the bridge files each session's key under a hash of the ask key.
   */
  askKey: 'ask.key',
  /** The durable store (the `--store` file). */
  store: 'cards.db',
} as const;
