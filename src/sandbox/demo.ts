// `--demo`: a person's computer (its identity file written or adopted), three assistants with
// agents and live sessions on it, and a dozen cards covering every kind, urgency, high stakes,
// Later, a helper, done, and notices from a webhook (one of them Cloudflare's payload).
import { mkdtempSync, readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { existingFileRefusal } from './identity-places';
import { SCOPES } from '../api/constants';
import type { Grant } from './context';
import { newId } from './ids';
import { identityText, newIdentity, publicOf, readIdentity, writeIdentity } from './machine-file';
import { parseNotice } from './notices';
import type { Sandbox } from './server';

export interface DemoOptions {
  /** Where this computer's identity file is written (or adopted from, when one is there). */
  machineFile?: string;
  machineName?: string;
  /** The run's own folder: the identity file goes there when none (or no usable one) is given. */
  workDir?: string;
}

let ownFolder: string | undefined;
/** A folder of this process's own, made once, when the run has no --work folder. */
function ownTempFolder(): string {
  ownFolder ??= mkdtempSync(join(tmpdir(), 'assistant-cards-sandbox-'));
  return ownFolder;
}

/**
 * The demo's identity file: the one asked for when it is free or a sandbox's own; else one in the
 * run's folder. Never the person's default identity file unless asked for by name, and never over
 * an identity of a real service (its baseUrl not a loopback sandbox): that stays theirs.
 */
function demoMachineFile(opts: DemoOptions): string {
  if (opts.machineFile !== undefined && existingFileRefusal(resolve(opts.machineFile)) === undefined) return opts.machineFile;
  const inWork = opts.workDir !== undefined ? join(opts.workDir, 'machine.json') : undefined;
  if (inWork !== undefined && existingFileRefusal(inWork) === undefined) return inWork;
  return join(ownTempFolder(), 'machine.json');
}

export interface DemoSeed {
  machineId: string;
  machineFile: string;
  assistantIds: string[];
  agentIds: string[];
  cardIds: Record<string, string>;
  webhookUrl: string;
}

export function seedDemo(sb: Sandbox, baseUrl: string, opts: DemoOptions = {}): DemoSeed {
  const { state, cards, notices, clock } = sb;
  const now = clock.now();

  // The computer: adopt a sandbox's identity file already there (so the extension's setup
  // survives a restart of the sandbox), else make one and write it.
  const machineFile = demoMachineFile(opts);
  let identity = readIdentity(machineFile);
  if (!identity) {
    identity = newIdentity(opts.machineName ?? hostname(), baseUrl);
    writeIdentity(machineFile, identity);
  } else {
    // Written again at the same address too when it names another run's process (#37).
    identity = { ...identity, baseUrl };
    if (readFileSync(machineFile, 'utf8') !== identityText(identity)) writeIdentity(machineFile, identity);
  }
  sb.ctx.identitiesWritten?.note(machineFile, identity.id, baseUrl);
  sb.auth.machines.set(identity.id, { id: identity.id, name: identity.name, publicJwk: publicOf(identity.privateJwk) });
  const machineId = identity.id;

  const cwd = process.cwd();
  const assistant = (name: string, app: string) => sb.sessions.addAssistant({ name, app, machineId }).id;
  const agent = (assistantId: string, name: string, session?: { pid: number; dir: string }) => {
    const rec = sb.sessions.addAgent(assistantId, name);
    if (session) sb.sessions.live(rec, newId('ses'), session.dir, { pid: session.pid, program: 'vscode' });
    return rec.id;
  };
  const api = assistant('api-server', 'claude-code');
  const web = assistant('web-app', 'codex');
  const docs = assistant('docs-writer', 'gemini-cli');
  const apiMain = agent(api, 'main', { pid: 40001, dir: cwd });
  const apiTests = agent(api, 'tests', { pid: 40002, dir: `${cwd}/test` });
  const webMain = agent(web, 'main', { pid: 40003, dir: cwd });
  const docsMain = agent(docs, 'main', { pid: 40004, dir: `${cwd}/docs` });

  const backend = { id: 'prj_backend', name: 'Backend' };
  const frontend = { id: 'prj_frontend', name: 'Frontend' };
  const ids: Record<string, string> = {};
  const card = (key: string, input: Parameters<typeof cards.create>[0]) => {
    ids[key] = cards.create(input).id;
    return state.cards.get(ids[key]!)!;
  };

  card('choice', {
    agentId: apiMain, kind: 'choice', title: 'Which database for the session store?', summary: 'Sessions outgrew memory. Pick a store.',
    options: [{ id: 'redis', label: 'Redis' }, { id: 'postgres', label: 'Postgres table' }, { id: 'sqlite', label: 'SQLite file' }],
    recommendedIds: ['redis'], urgency: 'today', blocking: true, area: backend,
  });
  card('multi', {
    agentId: webMain, kind: 'choice', multi: true, title: 'Which browsers should the e2e suite cover?',
    options: [{ id: 'chromium', label: 'Chromium' }, { id: 'firefox', label: 'Firefox' }, { id: 'webkit', label: 'WebKit' }],
    recommendedIds: ['chromium', 'firefox'], urgency: 'this-week', area: frontend,
  });
  card('approval', {
    agentId: apiTests, kind: 'approval', title: 'Run the migration on the staging database?', summary: 'Adds two columns; reversible.',
    urgency: 'now', blocking: true, area: backend,
  });
  card('text', {
    agentId: docsMain, kind: 'text', title: 'What should the changelog headline be for 2.0?', urgency: 'this-week',
  });
  card('questions', {
    agentId: webMain, kind: 'questions', title: 'A few choices for the settings page', urgency: 'today', area: frontend,
    asks: [
      { id: 'layout', title: 'Layout', options: [{ id: 'tabs', label: 'Tabs' }, { id: 'single', label: 'One long page' }] },
      { id: 'save', title: 'Save', options: [{ id: 'auto', label: 'Automatically' }, { id: 'button', label: 'With a button' }] },
      { id: 'name', title: 'What do we call the advanced section?' },
    ],
  });
  card('failure', {
    agentId: apiMain, kind: 'failure', title: 'The deploy plan stopped at step 3', summary: 'Health check timed out after 60 s.',
    urgency: 'now', blocking: true, area: backend,
    steps: [{ title: 'Build image', state: 'done' }, { title: 'Push image', state: 'done' },
      { title: 'Roll out', state: 'failed', detail: 'readiness probe failed' }, { title: 'Smoke test', state: 'pending' }],
  });
  card('highStakes', {
    agentId: apiMain, kind: 'approval', title: 'Buy the 12-month reserved instances ($4,800)?', summary: 'Cannot be undone.',
    urgency: 'today', blocking: false, highStakes: true, area: backend,
  });
  card('unknown', {
    agentId: docsMain, kind: 'poll', title: 'Which tone for the README intro?', summary: 'A kind this extension may not know yet.',
    options: [{ id: 'plain', label: 'Plain' }, { id: 'playful', label: 'Playful' }], urgency: 'whenever',
  });

  const person: Grant = {
    id: 'apg_demo', userId: sb.ctx.person.userId, workspaceId: sb.ctx.person.workspaceId, appId: 'app_demo',
    clientId: 'assistant-cards-demo', appName: 'Demo seed', appVerified: true, scopes: [...SCOPES], reach: 'all',
    createdAt: now, expiresAt: now + 3_600_000,
  };
  const origin = { grantId: person.id, appId: person.appId, clientId: person.clientId, appName: person.appName, machine: { id: machineId, name: identity.name } };

  const later = card('later', { agentId: webMain, kind: 'choice', title: 'Rename the Button component?', urgency: 'this-week', area: frontend,
    options: [{ id: 'yes', label: 'Rename to ActionButton' }, { id: 'no', label: 'Keep Button' }] });
  cards.later(person, origin, later.id, () => now + 3 * 3_600_000);

  const helper = card('delegated', { agentId: apiTests, kind: 'text', title: 'Write the test plan for the rate limiter', urgency: 'today', area: backend });
  cards.delegate(person, origin, helper.id, { to: { assistantId: docs, agentId: docsMain }, mode: 'loop', note: 'Draft it; I will review.' });

  const done = card('done', { agentId: webMain, kind: 'approval', title: 'Upgrade React to 19?', urgency: 'today', area: frontend });
  cards.answer(person, origin, done.id, { version: done.version, approved: true });
  cards.finishHoldNow(done);
  cards.pickup(done);

  // Notices from a webhook.
  const hook = notices.createWebhook('Deploys', { id: 'prj_backend', name: 'Backend' });
  const post = (body: unknown) => {
    const parsed = parseNotice(body);
    if (parsed.ok) notices.deliver(hook, parsed.notice);
  };
  post({ title: 'Deploy of api-server failed', summary: 'Exit code 1 in step "migrate".', severity: 'error', dedupeKey: 'deploy-api', url: 'https://ci.example.com/runs/812', from: 'CI' });
  post({ title: 'Deploy of api-server failed', summary: 'Exit code 1 in step "migrate".', severity: 'error', dedupeKey: 'deploy-api', url: 'https://ci.example.com/runs/813', from: 'CI' });
  post({
    name: 'Workers alert', text: 'Worker "edge-router" exceeded its CPU limit\nSeen on 3% of requests in the last 5 minutes.',
    alert_type: 'workers_alert', alert_correlation_id: 'cf-edge-router-cpu', ts: Math.floor(now / 1000),
    data: { script_name: 'edge-router', occurrences: 4, dashboard_url: 'https://dash.cloudflare.com/' },
  });
  post({ title: 'Site www.example.com is down', severity: 'critical', dedupeKey: 'uptime-www', from: 'Uptime' });
  for (const c of state.cards.values()) if (c.notice) ids[`notice:${c.notice.dedupeKey ?? c.id}`] = c.id;

  return {
    machineId, machineFile, assistantIds: [api, web, docs], agentIds: [apiMain, apiTests, webMain, docsMain], cardIds: ids,
    webhookUrl: `${baseUrl}/in/${hook.token}`,
  };
}
