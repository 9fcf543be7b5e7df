// Behind a company proxy: the extension takes VS Code's `http.proxy` setting. The service address
// given to the extension (https://cards.test, a name that resolves nowhere) is reachable only
// through the proxy, which routes that tunnel to a TLS front of the sandbox: signing in and a card
// reaching the model prove every request went through it. (Loopback addresses never go through a
// proxy: test/api/http.test.ts.) A wrong proxy is named to the person, with the setting to check.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { deadPort, startProxy, startTlsFront, type TestProxy } from '../helpers/proxy';
import { newCard, signInApproved, theApp, until, type World } from './cards-helpers';
import { testEnv } from './helpers/env';
import { startSandboxProcess } from './helpers/sandbox';

describe('through a proxy (http.proxy)', function () {
  this.timeout(120_000);
  let proxy: TestProxy | undefined;
  let front: { close(): Promise<void> } | undefined;
  let w: World | undefined;
  const http = () => vscode.workspace.getConfiguration('http');
  const cards = () => vscode.workspace.getConfiguration('assistantCards');

  after(async () => {
    await w?.app.signOut().catch(() => undefined);
    await http().update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await http().update('proxyStrictSSL', undefined, vscode.ConfigurationTarget.Global);
    await cards().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await cards().update('scope', undefined, vscode.ConfigurationTarget.Global);
    await w?.sb.close();
    await proxy?.close();
    await front?.close();
    await w?.app.refreshState();
  });

  it('signs in and reads cards with every request through the proxy', async () => {
    const app = await theApp();
    const real = await deadPort();
    const service = 'https://cards.test';
    const tlsDir = path.join(testEnv.root, 'test', 'fixtures', 'tls');
    const tlsFront = await startTlsFront({
      cert: fs.readFileSync(path.join(tlsDir, 'cards-test-cert.pem'), 'utf8'), key: fs.readFileSync(path.join(tlsDir, 'cards-test-key.pem'), 'utf8'), to: real,
    });
    front = tlsFront;
    proxy = await startProxy({ route: { 'cards.test:443': `127.0.0.1:${tlsFront.port}` } });
    const sb = await startSandboxProcess(['--port', String(real), '--public-url', service]);
    const machine = await sb.control<{ id: string }>('POST', '/_sandbox/machines', { name: 'behind a proxy', writeTo: testEnv.machineFile });
    const asst = await sb.control<{ id: string }>('POST', '/_sandbox/assistants', { name: 'Claude', app: 'claude-code', machineId: machine.id });
    const agent = await sb.control<{ id: string }>('POST', '/_sandbox/agents', { assistantId: asst.id, name: 'main' });
    w = { sb, app, machineId: machine.id, assistantId: asst.id, agentId: agent.id };

    await http().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
    // The front's certificate is self-signed (test/fixtures/tls): what is tested here is the route.
    await http().update('proxyStrictSSL', false, vscode.ConfigurationTarget.Global);
    await cards().update('scope', 'machine', vscode.ConfigurationTarget.Global);
    await cards().update('baseUrl', service, vscode.ConfigurationTarget.Global);
    await app.refreshState();
    await until('a client core for the service behind the proxy', () => app.live?.key.startsWith(`${service}|`));
    await signInApproved(w);
    const card = await newCard(w, { kind: 'choice', title: 'Through the proxy?', options: [{ id: 'y', label: 'Yes' }] });
    await until('the card in the model', () => app.live?.core.cards.get(card.id));
    assert.ok(proxy.tunnels.length >= 1, 'tunnels opened through the proxy');
    assert.deepEqual([...new Set(proxy.tunnels)], ['cards.test:443'], 'every tunnel is to the service');
  });

  it('a wrong proxy: the person is told which proxy cannot be reached and what to check', async () => {
    const app = await theApp();
    const wrong = `http://127.0.0.1:${await deadPort()}`;
    await http().update('proxy', wrong, vscode.ConfigurationTarget.Global);
    await until('a new client core with the new proxy', () => app.live?.key.includes(wrong));
    await vscode.commands.executeCommand('assistantCards.refresh');
    const offline = await until('offline', () => {
      const s = app.live?.core.state;
      return s?.kind === 'offline' ? s : undefined;
    }, 60_000);
    assert.match(offline.lastError, new RegExp(`the proxy ${wrong.replace(/\./g, '\\.')} cannot be reached \\(ECONNREFUSED\\); check the http\\.proxy setting`));
  });
});
