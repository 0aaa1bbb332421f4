import { spawn } from 'node:child_process';
import { ResponseBodyError } from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevicePrompt, deviceSignIn } from '../../examples/client-app/device.js';
import { Clients, DEVICE_CODE_GRANT } from '../../src/oauth/index.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';
import { signUpAndLogIn } from './sign-up.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/**
 * The device flow (RFC 8628) with the sample client's `--device` mode as the device and Chromium
 * as the user's browser: the verification page, the code typed or pre-filled, Approve and Deny.
 */
describe(`device authorization in Chromium`, { timeout: 60_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  let clientId: string;
  const page = () => browser.page;

  beforeAll(async () => {
    browser = await launchChromium();
    // A one-second interval keeps the device's polling short.
    server = await startReferenceServer(
      { oauth: { deviceCodePollIntervalSeconds: 1 } },
      { engine: ANY_ENGINE },
    );
    await signUpAndLogIn(page(), server.url, ADA);
    const created = await server.app.container.make(Clients).create({
      name: 'Order TV',
      redirect: '',
      confidential: false,
      grantTypes: [DEVICE_CODE_GRANT, 'refresh_token'],
    });
    clientId = created.client.id;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a wrong code is refused on the page with a clear message', async () => {
    await page().goto(`${server.url}/oauth/device`);
    await page().fill('#field-user_code', 'BBBB-BBBB');
    await page().click('main button[type="submit"]');
    await page().locator('.error', { hasText: 'not valid or has expired' }).waitFor();
    await browser.shot('device-01-wrong-code');
  });

  it('main.ts --device prints a URL and a code; the user types it, approves, and the device signs in', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'examples/client-app/main.ts', '--device', '--client-id', clientId],
      { env: { ...process.env, TOLLGATE_URL: server.url }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const [uri, code] = await new Promise<[string, string]>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk;
        const match = /open\s+(http:\/\/\S+\/oauth\/device)\s+and enter the code\s+([A-Z]{4}-[A-Z]{4})/.exec(
          stdout,
        );
        if (match) resolve([match[1]!, match[2]!]);
      });
      void exited.then((status) =>
        reject(new Error(`main.ts exited (${status}) early:\n${stdout}\n${stderr}`)),
      );
    });
    expect(uri).toBe(`${server.url}/oauth/device`);

    await page().goto(uri);
    // Typed as people do: lower case, no dash.
    await page().fill('#field-user_code', code.replace('-', '').toLowerCase());
    await browser.shot('device-02-enter-code');
    await page().click('main button[type="submit"]');
    await page().waitForSelector('.device-confirmation');
    await expect(page().locator('.client-name').textContent()).resolves.toBe('Order TV');
    await expect(page().locator('.user-code').textContent()).resolves.toBe(code);
    await expect(page().locator('[data-scope="check-status"]').count()).resolves.toBe(1);
    await browser.shot('device-03-confirm');
    await page().click('button[value="approve"]');
    await page().locator('h1', { hasText: 'Device connected' }).waitFor();
    await browser.shot('device-04-connected');

    expect(await exited).toBe(0);
    expect(stdout).toContain('GET /api/user answered:');
    expect(stdout).toContain(`"email": "${ADA.email}"`);
  });

  it('verification_uri_complete pre-fills the code; Deny sends access_denied to the device', async () => {
    let shown!: (prompt: DevicePrompt) => void;
    const prompt = new Promise<DevicePrompt>((resolve) => {
      shown = resolve;
    });
    const flow = deviceSignIn({ baseUrl: server.url, clientId, scope: 'check-status', show: shown }).then(
      () => undefined,
      (err: unknown) => err,
    );
    const { verificationUriComplete, userCode } = await prompt;
    await page().goto(verificationUriComplete!);
    await expect(page().locator('#field-user_code').inputValue()).resolves.toBe(userCode);
    await page().click('main button[type="submit"]');
    await page().waitForSelector('.device-confirmation');
    await page().click('button[value="deny"]');
    await page().locator('h1', { hasText: 'Access denied' }).waitFor();
    await browser.shot('device-05-denied');
    const err = await flow;
    expect(err).toBeInstanceOf(ResponseBodyError);
    expect((err as ResponseBodyError).error).toBe('access_denied');
  });
});
