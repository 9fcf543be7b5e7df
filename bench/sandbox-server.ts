// Bench only: the sandbox on its own process (the bench pins it to one core with taskset) with
// the per-minute rate limits switched off, so the load bench measures the request path of
// GET /v1/cards (full DPoP verification, token lookup, query, JSON) rather than the 429 path a
// 300-a-minute read limit would send almost every request down. Nothing else is changed.
import { RateLimits } from '../src/sandbox/limits';
import { startSandbox } from '../src/sandbox/index';

RateLimits.prototype.take = function take(): void {
  // limits off for the load bench (see above)
};

void startSandbox({ port: 0 }).then((sb) => {
  process.stdout.write(`listening on ${sb.url}\n`);
  const stop = () => void sb.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
});
