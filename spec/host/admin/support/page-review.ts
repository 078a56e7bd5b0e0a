import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { SCREENSHOTS as SPEC_OUTPUT, SIDEWAYS_OVERFLOW } from '../../../support/chromium';

/** Where the billing screens' browser specs photograph their pages (spec-output/, not committed). */
export const BILLING_SCREENSHOTS = path.join(SPEC_OUTPUT, 'admin-billing');
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * A page's review as the browser specs make it: axe-core finds no serious or critical violation,
 * then the page is photographed at 1280 and 390 px, and on the phone it never scrolls sideways.
 */
export function pageReview(page: Page, dir = BILLING_SCREENSHOTS) {
  fs.mkdirSync(dir, { recursive: true });
  const axe = async (name: string) => {
    await page.evaluate(AXE);
    const violations = (await page.evaluate(() => (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe.run().then((r) => r.violations))) as AxeViolation[];
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${name}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, name).to.deep.equal([]);
  };
  const review = async (name: string) => {
    await axe(name);
    await page.screenshot({ path: path.join(dir, `${name}-1280.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(SIDEWAYS_OVERFLOW), `${name} at 390 px`).to.be.at.most(0);
    await page.screenshot({ path: path.join(dir, `${name}-390.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 860 });
  };
  return { axe, review };
}

/** What the first cell of a column shows before its value on a phone (390 px), where table rows become cards: its column's label, from data-label. */
export async function phoneCellLabel(page: Page, column: string): Promise<string> {
  await page.setViewportSize({ width: 390, height: 844 });
  const label = await page
    .locator(`td[data-label="${column}"]`)
    .first()
    .evaluate((cell) => getComputedStyle(cell, '::before').content);
  await page.setViewportSize({ width: 1280, height: 860 });
  return label;
}
