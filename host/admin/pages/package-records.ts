import { AdminRequest, callAs } from '../admin-request';
import { wholeNumberOr } from '../components/list-controls';
import { moneyText } from '../money-text';

/** A pricing row as packages/get answers it. */
export interface Pricing {
  readonly id: number;
  readonly term: number;
  readonly period: string;
  readonly price: string;
  readonly price_renews: string;
  readonly setup_fee: string;
  readonly cancel_fee: string;
  readonly currency: string;
}

/** A package as packages/get and packages/getList answer it (the fields the screens show). */
export interface PackageRecord {
  readonly id: number;
  readonly name: string;
  readonly description: string | null;
  readonly status: string;
  readonly taxable: number;
  readonly pricing: readonly Pricing[];
  readonly groups: readonly number[];
  readonly option_groups: readonly number[];
}

export interface PackageGroup {
  readonly id: number;
  readonly name: string;
  readonly description: string | null;
  readonly type: string;
}

export const PACKAGE_STATUS_LABELS: Record<string, string> = { active: 'Active', inactive: 'Inactive', restricted: 'Restricted (only clients allowed it)' };
export const PERIODS = ['month', 'year', 'week', 'day', 'onetime'] as const;

/** A pricing row in words: `$10.00 every 1 month (USD)`, `$25.00 once`. */
export function pricingText(pricing: Pricing): string {
  const price = moneyText(pricing.price, pricing.currency);
  return pricing.period === 'onetime' ? `${price} once` : `${price} every ${pricing.term} ${pricing.period}${pricing.term === 1 ? '' : 's'}`;
}

/** The package of the company in view, or null (unknown, another company's, not a number). */
export async function findPackage(request: AdminRequest, id: unknown): Promise<PackageRecord | null> {
  const packageId = wholeNumberOr(id, 0);
  if (!packageId) return null;
  const found = await callAs(request, 'packages', 'get', { package_id: packageId });
  return found ? (found as PackageRecord) : null;
}
