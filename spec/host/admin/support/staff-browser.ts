import type { Page } from 'playwright-core';
import { Browser, launchChromium } from '../../../support/chromium';
import { TestServer } from '../../../support/test-server';
import { STAFF } from './admin-client';

/** A browser spec's Chromium, its page signed in to the area, and what the page said on the way. */
export interface StaffBrowser {
  readonly browser: Browser;
  readonly page: Page;
  /** Console errors and script errors (a CSP violation shows up here): the specs expect none. */
  readonly problems: string[];
  /** Every dialog (`confirm: <message>`), in order. */
  readonly dialogs: string[];
}

/**
 * Headless Chromium at 1280 × 860 with one page signed in as the spec staff member (who must
 * exist), collecting problems and dialogs; `answer` decides each confirmation (the nth, from 0;
 * accepted unless it says otherwise). Undefined when Chromium is not installed.
 */
export async function signedInBrowser(server: TestServer, answer: (index: number) => boolean = () => true): Promise<StaffBrowser | undefined> {
  const browser = await launchChromium({ width: 1280, height: 860 });
  if (!browser) return undefined;
  const page = await browser.context.newPage();
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void (answer(dialogs.length - 1) ? dialog.accept() : dialog.dismiss());
  });
  await signIn(page, server);
  return { browser, page, problems, dialogs };
}

/** Signs a page in through the sign-in form and waits for the dashboard. */
export async function signIn(page: Page, server: TestServer, username = STAFF.username, password = STAFF.password): Promise<void> {
  await page.goto(`${server.url}/admin/sign-in`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${server.url}/admin`);
}

/** A page of a second browser session (its own cookies), signed in as another staff member; close it with `close`. */
export async function otherSession(staff: StaffBrowser, server: TestServer, username: string, password: string): Promise<{ page: Page; close(): Promise<void> }> {
  const context = await staff.browser.context.browser()?.newContext();
  const page = context ? await context.newPage() : await staff.browser.context.newPage();
  if (!context) await staff.browser.context.clearCookies();
  await signIn(page, server, username, password);
  return {
    page,
    async close() {
      await page.close();
      await context?.close();
    },
  };
}
