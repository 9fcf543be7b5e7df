// Bench only: the sandbox on its own process (the bench pins it to one core with taskset) with
// the per-minute rate limits switched off, so the load bench measures the request path of
// GET /v1/cards (full DPoP verification, token lookup, query, JSON) rather than the 429 path a
// 300-a-minute read limit would send almost every request down. Nothing else is changed.
import { RateLimits } from '../src/sandbox/limits';
import { startSandbox } from '../src/sandbox/index';

RateLimits.prototype.take = function take(): void {
  // limits off for the load bench (see above)
};

// The load bench's temporary folder: where the sandbox may write the computer's identity file.
const workDir = process.env.BENCH_SANDBOX_WORK_DIR;
void startSandbox({ port: 0, ...(workDir ? { workDir } : {}) }).then((sb) => {
  process.stdout.write(`listening on ${sb.url}\ncontrol secret ${sb.controlSecret}\n`);
  // "cpu" on stdin -> "cpu <microseconds of CPU this process used>": the load bench reads it
  // before and after its window, so it can tell the sandbox's own cost per read from the noise.
  let buf = '';
  process.stdin.on('data', (c: Buffer) => {
    buf += c.toString();
    for (let i = buf.indexOf('\n'); i !== -1; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (line === 'cpu') {
        const u = process.cpuUsage();
        process.stdout.write(`cpu ${u.user + u.system}\n`);
      }
    }
  });
  const stop = () => void sb.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
});
