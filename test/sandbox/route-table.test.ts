// One route table (src/sandbox/v1-route-table.ts) registers the /v1 handlers and renders
// /v1/openapi.json: the document's scopes and limit classes are the table's, every class it names
// is one the limiter counts (the document once said `answers` where the limiter counts `answer`),
// and the client's own mapping (src/api/limit-classes.ts) agrees with both.
import assert from 'node:assert/strict';
import { LIMIT_CLASSES } from '../../src/api/constants';
import { classesOf } from '../../src/api/limit-classes';
import { buildSandbox } from '../../src/sandbox/server';
import { PER_MINUTE } from '../../src/sandbox/limits';
import { openApiDocument } from '../../src/sandbox/openapi';
import { fastifyPath, V1_ROUTES } from '../../src/sandbox/v1-route-table';

type Op = { 'x-scope': string; 'x-limit-classes': string[]; 'x-limit-classes-when-waiting'?: string[]; security: Record<string, string[]>[] };

describe('sandbox route table', () => {
  const doc = openApiDocument('http://127.0.0.1:1') as { paths: Record<string, Record<string, Op>> };

  it('the document has exactly the table\'s routes, with the table\'s scope and limit classes', () => {
    const documented = Object.entries(doc.paths).flatMap(([p, m]) => Object.keys(m).map((k) => `${k.toUpperCase()} ${p}`))
      .filter((o) => o !== 'GET /v1/openapi.json').sort();
    assert.deepEqual(documented, V1_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    for (const r of V1_ROUTES) {
      const op = doc.paths[r.path]![r.method.toLowerCase()]!;
      assert.equal(op['x-scope'], r.scope, r.path);
      assert.deepEqual(op['x-limit-classes'], [...r.classes, 'person'], r.path);
      assert.deepEqual(op['x-limit-classes-when-waiting'], r.classesWhenWaiting ? [...r.classesWhenWaiting, 'person'] : undefined, r.path);
      assert.deepEqual(op.security[0], { dpop: r.scope === 'any' ? [] : [r.scope] }, r.path);
    }
  });

  it('every limit class the document names is one the limiter counts and the client pauses', () => {
    const counted = Object.keys(PER_MINUTE).sort();
    assert.deepEqual(counted, [...LIMIT_CLASSES].sort());
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (path === '/v1/openapi.json') continue;
        for (const c of [...op['x-limit-classes'], ...(op['x-limit-classes-when-waiting'] ?? [])]) {
          assert.ok((counted as string[]).includes(c), `${method.toUpperCase()} ${path} names "${c}", which the limiter does not count`);
        }
      }
    }
    // Answers and words written on a card count against the answers limit (spec, "Limits").
    assert.ok(doc.paths['/v1/cards/{id}/answer']!.post!['x-limit-classes'].includes('answer'));
    assert.ok(doc.paths['/v1/cards/{id}/messages']!.post!['x-limit-classes'].includes('answer'));
  });

  it('the client counts each route against the same classes as the table', () => {
    for (const r of V1_ROUTES) {
      const path = r.path.replace('{id}', 'req_1');
      assert.deepEqual(classesOf(r.method, path, false).sort(), [...r.classes, 'person'].sort(), `${r.method} ${r.path}`);
      if (r.classesWhenWaiting) assert.deepEqual(classesOf(r.method, path, true).sort(), [...r.classesWhenWaiting, 'person'].sort(), `${r.method} ${r.path} waiting`);
    }
  });

  it('the sandbox serves every route of the table', async () => {
    const sb = buildSandbox({ manualClock: true });
    try {
      await sb.app.ready();
      const served = new Set(sb.routes.map((r) => `${r.method} ${r.url}`));
      for (const r of V1_ROUTES) assert.ok(served.has(`${r.method} ${fastifyPath(r.path)}`), `${r.method} ${r.path}`);
    } finally {
      sb.stop();
      await sb.app.close();
    }
  });
});
