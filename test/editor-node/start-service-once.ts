// Starts the local service once as a window does and prints the outcome as one JSON line: run by
// service-store-refused.test.ts inside a user namespace, where the home is a tiny disk of its own
// that only processes in that namespace see.
import { ensureLocalService, lastStartFailure, type StartWith } from '../../src/editor/connection/service-starter';

const w = JSON.parse(process.argv[2] ?? '{}') as StartWith;
ensureLocalService(w).then(({ state }) => {
  process.kill(state.pid, 'SIGTERM');
  console.log(JSON.stringify({ started: true }));
}, (e: unknown) => {
  console.log(JSON.stringify({ refused: (e as Error).message, shown: lastStartFailure(w.home) }));
});
