import { strict as assert } from 'node:assert';
import { backoffDelay, redact, redactingLogger, sleep, AbortedError } from '../../src/api/runtime';
import type { Timers } from '../../src/api/runtime';

describe('api runtime: backoff, sleep, redaction', () => {
  it('backoff doubles up to the cap, with jitter inside [cap/2, cap]', () => {
    assert.equal(backoffDelay(0, { baseMs: 1000, random: () => 0 }), 500);
    assert.equal(backoffDelay(0, { baseMs: 1000, random: () => 1 }), 1000);
    assert.equal(backoffDelay(3, { baseMs: 1000, random: () => 1 }), 8000);
    assert.equal(backoffDelay(20, { baseMs: 1000, maxMs: 60_000, random: () => 1 }), 60_000);
    for (let a = 0; a < 10; a++) {
      const d = backoffDelay(a, { baseMs: 500, maxMs: 30_000 });
      const cap = Math.min(30_000, 500 * 2 ** a);
      assert.ok(d >= cap / 2 && d <= cap, `attempt ${a}: ${d}`);
    }
  });

  it('sleep rejects with AbortedError when aborted and cancels its timer', async () => {
    let cancelled = false;
    const timers: Timers = { setTimeout: () => ({ cancel: () => (cancelled = true) }) };
    const ac = new AbortController();
    const p = sleep(timers, 10_000, ac.signal);
    ac.abort();
    await assert.rejects(p, AbortedError);
    assert.ok(cancelled);
  });

  it('redaction masks tokens by name and by shape, at any depth', () => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const out = JSON.stringify(redact({
      accessToken: 'at-1', refresh_token: 'rt-1', nested: { device_code: 'dc', header: `DPoP ${jwt}` },
      list: [{ dpop: jwt }], note: `saw ${jwt} here`, userCode: 'ABCD-EFGH', status: 200,
    }));
    for (const secret of ['at-1', 'rt-1', 'dc', jwt]) assert.ok(!out.includes(secret), `${secret} leaked: ${out}`);
    assert.ok(out.includes('ABCD-EFGH'), 'the user code is shown to the person anyway');
    assert.ok(out.includes('200'));
  });

  it('a redacting logger passes messages and facts through redact', () => {
    const lines: string[] = [];
    const log = redactingLogger({ info: (m, f) => lines.push(m + JSON.stringify(f ?? {})), warn() {}, error() {} });
    log.info('Authorization: Bearer abc.def', { refreshToken: 'rt-secret' });
    assert.ok(!lines[0]!.includes('rt-secret'));
    assert.ok(!lines[0]!.includes('abc.def'));
  });
});
