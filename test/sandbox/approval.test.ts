// The approval page at verification_uri, in Chromium through Playwright: the person sees the
// app's name, publisher, verified or not, the computer and the scopes; can untick; allows or denies.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { BROWSER_ARGS, chromiumPath } from '../../scripts/test-browser.cjs';
import type { RunningSandbox } from '../../src/sandbox';
import { call, dpopProof, makeKey, makeMachine, postForm, startDevice, startSandbox, tokenNonce, type Machine, type TestKey } from './helpers';

const CHROMIUM = chromiumPath();
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('sandbox approval page (Chromium)', function () {
  this.timeout(60_000);
  let sb: RunningSandbox;
  let browser: Browser;
  let page: Page;
  let machine: Machine;

  // Playwright gives the browser a fresh temporary profile of its own.
  before(async function () {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is needed for the approval page test (apt-get install chromium)`);
    sb = await startSandbox({ port: 0 });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', ...BROWSER_ARGS],
    });
    machine = await makeMachine(sb.url, 'Work laptop');
  });
  after(async () => {
    await browser?.close();
    await sb?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
  });
  afterEach(async () => {
    await page.close();
  });

  async function begin(scopes: string[], clientId?: string): Promise<{ key: TestKey; device: Record<string, string> }> {
    const key = makeKey();
    const res = await startDevice(sb.url, { key, machine, scopes, ...(clientId ? { clientId } : {}) });
    assert.equal(res.status, 200, res.text);
    return { key, device: res.json };
  }
  async function poll(key: TestKey, deviceCode: string, clientId = 'assistant-cards-vscode') {
    const nonce = await tokenNonce(sb.url, key);
    return postForm(`${sb.url}/oauth/token`, { grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: clientId }, {
      DPoP: await dpopProof(key, { htm: 'POST', htu: `${sb.url}/oauth/token`, nonce }),
    });
  }

  it('shows app, publisher, unverified status, computer and scopes; unticking allows fewer', async () => {
    const { key, device } = await begin(['cards:read', 'cards:answer', 'presence:desk']);
    await page.goto(device.verification_uri_complete!);
    assert.equal(await page.textContent('#app-name'), 'Assistant Cards for VS Code');
    assert.equal(await page.textContent('#publisher'), 'Assistant Cards');
    assert.match((await page.textContent('#verified')) ?? '', /Unverified app/);
    assert.match((await page.textContent('#computer')) ?? '', /Work laptop/);
    assert.equal(await page.textContent('#user-code'), device.user_code);
    const boxes = await page.$$eval('input[type=checkbox][name=scope]', (els) => els.map((e) => [(e as HTMLInputElement).value, (e as HTMLInputElement).checked]));
    assert.deepEqual(boxes, [['cards:read', true], ['cards:answer', true], ['presence:desk', true]]);
    await page.uncheck('input[value="presence:desk"]');
    await page.click('#allow');
    await page.waitForSelector('#result');
    assert.equal(await page.textContent('#result'), 'Sign-in allowed');
    assert.match((await page.textContent('#message')) ?? '', /cards:read, cards:answer/);
    const tokens = await poll(key, device.device_code!);
    assert.equal(tokens.status, 200, tokens.text);
    assert.equal(tokens.json.scope, 'cards:read cards:answer');
  });

  it('Deny: the app hears access_denied', async () => {
    const { key, device } = await begin(['cards:read']);
    await page.goto(device.verification_uri_complete!);
    await page.click('#deny');
    await page.waitForSelector('#result');
    assert.equal(await page.textContent('#result'), 'Sign-in denied');
    assert.equal((await poll(key, device.device_code!)).json.error, 'access_denied');
  });

  it('unticking everything allows nothing and says so; the sign-in still waits', async () => {
    const { device } = await begin(['cards:read']);
    await page.goto(device.verification_uri_complete!);
    await page.uncheck('input[value="cards:read"]');
    await page.click('#allow');
    await page.waitForSelector('#result');
    assert.equal(await page.textContent('#result'), 'Nothing allowed');
    const approve = await call('POST', `${sb.url}/_sandbox/device/approve`, { user_code: device.user_code });
    assert.equal(approve.status, 200);
  });

  it('a form posted from elsewhere (no form token) is refused and decides nothing', async () => {
    const { device } = await begin(['cards:read']);
    const forged = await postForm(`${sb.url}/device`, { user_code: device.user_code!, action: 'allow', scope: 'cards:read' });
    assert.equal(forged.status, 403);
    assert.match(forged.text, /did not come from the approval page/);
    const approve = await call('POST', `${sb.url}/_sandbox/device/approve`, { user_code: device.user_code });
    assert.equal(approve.status, 200, 'still waiting on the person');
  });

  it('the code can be typed at verification_uri', async () => {
    const { device } = await begin(['cards:read']);
    await page.goto(device.verification_uri!);
    await page.fill('input[name=user_code]', device.user_code!.toLowerCase());
    await page.click('button[type=submit]');
    await page.waitForSelector('#app-name');
    assert.equal(await page.textContent('#user-code'), device.user_code);
    await page.goto(`${device.verification_uri}?user_code=QQQQ-QQQQ`);
    assert.match((await page.textContent('#message')) ?? '', /no sign-in waits/);
  });

  it('escapes what apps registered: a hostile name is shown as text', async () => {
    const name = '<img src=x id=pwned onerror="document.title=1">Evil & Co';
    const reg = await call('POST', `${sb.url}/_sandbox/apps`, { name, publisher: '<b id=bold>Pub</b>', verified: true, scopes: ['cards:read'] });
    assert.equal(reg.status, 201, reg.text);
    const { device } = await begin(['cards:read'], reg.json.clientId);
    await page.goto(device.verification_uri_complete!);
    assert.equal(await page.textContent('#app-name'), name);
    assert.equal(await page.textContent('#publisher'), '<b id=bold>Pub</b>');
    assert.equal(await page.$('#pwned'), null);
    assert.equal(await page.$('#bold'), null);
    assert.match((await page.textContent('#verified')) ?? '', /Verified app/);
  });

  it('the consent page of a desktop app redirects back to its loopback address with a code', async () => {
    const reg = await call('POST', `${sb.url}/_sandbox/apps`, { name: 'Desk', verified: true, scopes: ['cards:read'], redirectUris: ['http://127.0.0.1/cb'] });
    const u = new URL(`${sb.url}/oauth/authorize`);
    const q = { response_type: 'code', client_id: reg.json.clientId, redirect_uri: 'http://127.0.0.1:9/cb', scope: 'cards:read', state: 's1', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', resource: `${sb.url}/v1` };
    for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
    let landed: URL | undefined;
    await page.route('http://127.0.0.1:9/**', async (route) => {
      landed = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back in the app' });
    });
    await page.goto(u.toString());
    assert.match((await page.textContent('#computer')) ?? '', /None/);
    assert.equal(await page.isDisabled('input[type=checkbox][value="cards:read:all"]'), true);
    await page.click('#allow');
    await page.waitForURL(/127\.0\.0\.1:9/);
    assert.ok(landed);
    assert.equal(landed.searchParams.get('state'), 's1');
    assert.equal(landed.searchParams.get('iss'), sb.url);
    assert.ok(landed.searchParams.get('code'));
  });
});
