import type { Page } from 'playwright-core';

/** Registers `user` on the pages, then logs in (a sign-up ends on the login page), ending on the dashboard. */
export async function signUpAndLogIn(
  page: Page,
  baseUrl: string,
  user: { name: string; email: string; password: string },
): Promise<void> {
  await page.goto(`${baseUrl}/register`);
  await page.fill('#field-name', user.name);
  await page.fill('#field-email', user.email);
  await page.fill('#field-password', user.password);
  await page.fill('#field-password_confirmation', user.password);
  await Promise.all([page.waitForURL(`${baseUrl}/login`), page.click('main button[type="submit"]')]);
  await page.fill('#field-email', user.email);
  await page.fill('#field-password', user.password);
  await Promise.all([page.waitForURL(`${baseUrl}/dashboard`), page.click('main button[type="submit"]')]);
}
