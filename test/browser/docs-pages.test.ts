import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium, PHONE } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';

const pages = readdirSync(join(import.meta.dirname, '../../docs'))
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.replace(/\.md$/, ''));

/** Every page of docs/ as the reference service serves it, on a phone. */
describe('the documentation pages at 390 px', { timeout: 180_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;

  beforeAll(async () => {
    browser = await launchChromium();
    await browser.page.setViewportSize(PHONE);
    server = await startReferenceServer();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('no page scrolls sideways; every code block scrolls inside itself and takes keyboard focus', async () => {
    const wide: string[] = [];
    for (const name of pages) {
      const response = await browser.page.goto(`${server.url}/docs/${name}`);
      expect(response?.status(), name).toBe(200);
      const found = await browser.page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const overflow = document.documentElement.scrollWidth - width;
        const culprits = [...document.querySelectorAll('.doc *')]
          .filter((element) => element.getBoundingClientRect().right > width + 1)
          .filter((element) => !element.closest('pre, .table-wrap'))
          .slice(0, 3)
          .map((element) => `${element.tagName.toLowerCase()}: ${element.textContent?.slice(0, 60)}`);
        const unfocusable = [...document.querySelectorAll('pre')].filter((pre) => pre.tabIndex !== 0).length;
        return { overflow, culprits, unfocusable };
      });
      if (found.overflow > 0) wide.push(`${name}: ${found.overflow} px (${found.culprits.join(' | ')})`);
      expect(found.unfocusable, `${name}: <pre> without tabindex="0"`).toBe(0);
    }
    expect(wide).toEqual([]);
  });
});
