import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { type Chromium, DESKTOP, PHONE } from './chromium.js';

export type PhoneCheck = (page: Page) => Promise<string[]>;

/**
 * Audits pages of the server at `base` in `browser`: each path's serious and critical axe
 * violations at 1280 and 390 px (WCAG 2.x A/AA and axe's best practices), and what an optional
 * phone check finds wrong with the page laid out at 390 px.
 */
export function axeAuditor(browser: () => Chromium, base: () => string) {
  const audit = async (
    path: string,
    expectedStatus = 200,
    atPhone?: PhoneCheck,
    page: Page = browser().page,
  ): Promise<string[]> => {
    const response = await page.goto(`${base()}${path}`);
    expect(response?.status(), path).toBe(expectedStatus);
    const found: string[] = [];
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      // Only the violations: axe skips collecting the nodes that pass, much faster on a long page.
      const axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
      for (const violation of (await axe.analyze()).violations) {
        if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
        const targets = violation.nodes.slice(0, 3).map((node) => node.target.join(' '));
        found.push(
          `${path} @${size.width}: ${violation.id} ×${violation.nodes.length} (${targets.join(', ')})`,
        );
      }
      if (size === PHONE && atPhone)
        found.push(...(await atPhone(page)).map((problem) => `${path}: ${problem}`));
    }
    await page.setViewportSize(DESKTOP);
    return found;
  };

  const auditAll = async (paths: [string, number?][]) => {
    const found: string[] = [];
    for (const [path, status] of paths) found.push(...(await audit(path, status)));
    return found;
  };

  /**
   * The same audits shared out over `lanes` pages of the browser's context, each page taking the
   * next path as it finishes one: axe is single-threaded per page, so two pages keep two cores
   * busy. Findings come back in the order of `paths`.
   */
  const auditInParallel = async (paths: string[], atPhone?: PhoneCheck, lanes = 2) => {
    const pages = [browser().page];
    while (pages.length < lanes) pages.push(await browser().context.newPage());
    const found: string[][] = [];
    let next = 0;
    try {
      await Promise.all(
        pages.map(async (page) => {
          while (next < paths.length) {
            const index = next++;
            found[index] = await audit(paths[index] as string, 200, atPhone, page);
          }
        }),
      );
    } finally {
      for (const page of pages.slice(1)) await page.close();
    }
    return found.flat();
  };

  return { audit, auditAll, auditInParallel };
}
