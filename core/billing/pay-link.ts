import { purposeMac } from '../kernel/system-cipher';

/**
 * The token of a pay link (invoices/createPayHash): bound to the company, the client and the
 * invoice, under a key of its own derived from the system key.
 */
export function payToken(systemKey: string, companyId: number, clientId: number, invoiceId: number): string {
  return purposeMac('tally pay token', `pay:co=${companyId}|c=${clientId}|i=${invoiceId}`, systemKey).slice(0, 32);
}

/**
 * The client area's pay link of an invoice (host/client/pages/pay-link-page.ts serves it) under
 * the installation's public address (the public_url setting, no trailing slash needed); '' when
 * no public address is set, as a link without one would lead nowhere from a mailbox.
 */
export function payLinkUrl(publicUrl: string, systemKey: string, companyId: number, clientId: number, invoiceId: number): string {
  if (!publicUrl) return '';
  return `${publicUrl.replace(/\/+$/, '')}/client/pay/${companyId}/${clientId}/${invoiceId}/${payToken(systemKey, companyId, clientId, invoiceId)}`;
}
