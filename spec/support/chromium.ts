import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { findChromium } from '../../scripts/support/chromium-path';

/** The installed Chromium (see findChromium: CI's check finds it the same way), driven by playwright-core; undefined when there is none. */
export const CHROMIUM = findChromium();
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Where browser specs leave their screenshots (ignored by git). */
export const SCREENSHOTS = path.resolve(__dirname, '../../../spec-output');

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** A headless Chromium with a profile of its own, removed on close; undefined when chromium is not installed. */
export async function launchChromium(options: { width: number; height: number; httpCredentials?: { username: string; password: string } }): Promise<Browser | undefined> {
  if (!CHROMIUM) return undefined;
  const { chromium } = await import('playwright-core');
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: options.width, height: options.height },
    httpCredentials: options.httpCredentials,
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** How many pixels the page is wider than the window (0 when it never scrolls sideways). */
export const SIDEWAYS_OVERFLOW = () => document.documentElement.scrollWidth - document.documentElement.clientWidth;
