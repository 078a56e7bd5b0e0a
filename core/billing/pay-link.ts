import { Tx } from '../db/schema';
import { purposeMac } from '../kernel/system-cipher';
import { SETTINGS } from '../settings-catalogue';
import { companySettingValues } from './billing-settings';

/**
 * The token of a pay link (invoices/createPayHash): the MAC (32 hex digits) of the company, the
 * client, the invoice and the expiry under a key of its own derived from the system key, then the
 * expiry it covers (Unix seconds, 8 hex digits), so the expiry cannot be moved.
 */
export function payToken(systemKey: string, companyId: number, clientId: number, invoiceId: number, expires: number): string {
  const mac = purposeMac('tally pay token', `pay:co=${companyId}|c=${clientId}|i=${invoiceId}|e=${expires}`, systemKey).slice(0, 32);
  return `${mac}${expires.toString(16).padStart(8, '0')}`;
}

/** The expiry a pay token carries (its last 8 hex digits), or null when it is not a pay token's shape. */
export function payTokenExpiry(token: string): number | null {
  return /^[0-9a-f]{40}$/.test(token) ? parseInt(token.slice(32), 16) : null;
}

/** When a pay link made now stops taking payments (Unix seconds): the company's pay_link_days from now. */
export async function payLinkExpiry(db: Tx, companyId: number, now = Date.now()): Promise<number> {
  const days = Number((await companySettingValues(db, companyId)).get('pay_link_days') ?? SETTINGS.pay_link_days.default);
  return Math.floor(now / 1000) + days * 86400;
}

/**
 * The client area's pay link of an invoice (host/client/pages/pay-link-page.ts serves it) under
 * the installation's public address (the public_url setting, no trailing slash needed); '' when
 * no public address is set, as a link without one would lead nowhere from a mailbox.
 */
export function payLinkUrl(publicUrl: string, systemKey: string, companyId: number, clientId: number, invoiceId: number, expires: number): string {
  if (!publicUrl) return '';
  return `${publicUrl.replace(/\/+$/, '')}/client/pay/${companyId}/${clientId}/${invoiceId}/${payToken(systemKey, companyId, clientId, invoiceId, expires)}`;
}
