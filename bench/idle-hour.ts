// Runs the client core's idle-hour simulation (test/sync/idle-hour.ts, by issue 4) on the
// sandbox's manual clock and prints its per-class report as one JSON line.
import { simulateIdleHour } from '../test/sync/idle-hour';

simulateIdleHour().then((r) => {
  process.stdout.write(`${JSON.stringify(r)}\n`);
  process.exit(0);
}, (e: unknown) => {
  console.error(e);
  process.exit(1);
});
