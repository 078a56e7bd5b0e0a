import type { Page } from 'playwright-core';
import { Browser } from '../../../support/chromium';
import { STAFF } from './admin-client';

/**
 * A new page of `browser` signed in to the admin area at `baseUrl` as STAFF (added by the spec),
 * every console error and page error pushed to `problems` for the spec to check.
 */
export async function signedInPage(browser: Browser, baseUrl: string, problems: string[]): Promise<Page> {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${baseUrl}/admin/sign-in`);
  await page.getByLabel('Username').fill(STAFF.username);
  await page.getByLabel('Password').fill(STAFF.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${baseUrl}/admin`);
  return page;
}
