import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's chromium (`apt-get install -y chromium`), as CI installs it; CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags per STACK.md: headless, no sandbox (containers), nothing that reaches the network by itself. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface Chromium {
  context: BrowserContext;
  page: Page;
  /** Where screenshots go (`test-results/screenshots`, or SCREENSHOTS_DIR). */
  shots: string;
  /** Full-page screenshots of the current page at desktop and phone widths: `<name>.png`, `<name>-phone.png`. */
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** `javaScript: false` browses as a user with JavaScript turned off: pages must work on their own. */
export async function launchChromium(options: { javaScript?: boolean } = {}): Promise<Chromium> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. The browser tests drive Debian's chromium: ` +
        'run `apt-get install -y chromium` (or set CHROMIUM_PATH).',
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'tollgate-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    viewport: DESKTOP,
    acceptDownloads: true,
    locale: 'en-US',
    timezoneId: 'UTC',
    javaScriptEnabled: options.javaScript ?? true,
  });
  context.setDefaultTimeout(10_000);
  const page = context.pages()[0] ?? (await context.newPage());
  // Deleting and cancelling ask with confirm(): the user says yes.
  page.on('dialog', (dialog) => void dialog.accept());
  const shots = resolve(process.env.SCREENSHOTS_DIR ?? 'test-results/screenshots');
  mkdirSync(shots, { recursive: true });
  return {
    context,
    page,
    shots,
    async shot(name) {
      // A full-page capture of a long page (the docs) takes seconds on a loaded machine.
      const timeout = 30_000;
      await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true, timeout });
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: join(shots, `${name}-phone.png`), fullPage: true, timeout });
      await page.setViewportSize(DESKTOP);
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
