import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteDatabase } from '../support/sqlite-database.js';
import { axeAuditor } from './axe-audit.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, serveReferenceService } from './reference-server.js';

const docs = readdirSync(join(import.meta.dirname, '../../docs'))
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.replace(/\.md$/, ''));

/**
 * The pages anyone can open, checked by axe-core in Chromium at 1280 and 390 px (the signed-in
 * ones: accessibility.test.ts). What they show reads nothing from the database, so they run on
 * SQLite only, once per CI run; a docs page may not scroll sideways on a phone and its code blocks
 * take keyboard focus.
 */
describe('accessibility of the public pages in Chromium', { timeout: 300_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  const { auditAll, auditInParallel } = axeAuditor(
    () => browser,
    () => server.url,
  );

  /** A docs page on a phone: no sideways scroll, and every code block takes keyboard focus. */
  const docsLayout = async (page: Page) => {
    const layout = await page.evaluate(() => ({
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      unfocusable: [...document.querySelectorAll('pre')].filter((pre) => pre.tabIndex !== 0).length,
    }));
    return [
      ...(layout.overflow > 0 ? [`${layout.overflow} px wider than the phone`] : []),
      ...(layout.unfocusable > 0 ? [`${layout.unfocusable} <pre> without tabindex="0"`] : []),
    ];
  };

  beforeAll(async () => {
    browser = await launchChromium();
    server = await serveReferenceService(createSqliteDatabase());
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signed out: home, sign-in, registration, password reset and the missing page', async () => {
    const found = await auditAll([
      ['/'],
      ['/login'],
      ['/register'],
      ['/forgot-password'],
      ['/reset-password?token=not-a-token&email=ada%40example.com'],
      ['/no/such/page', 404],
    ]);
    expect(found).toEqual([]);
  });

  it('the docs: no violation, no sideways scroll at 390 px, code blocks take keyboard focus', async () => {
    const found = await auditAll([['/docs']]);
    found.push(
      ...(await auditInParallel(
        docs.map((name) => `/docs/${name}`),
        docsLayout,
      )),
    );
    expect(found).toEqual([]);
  });
});
