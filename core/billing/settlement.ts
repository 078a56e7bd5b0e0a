import { Amount } from '../kernel/money';

/**
 * When an invoice is closed. An active or proforma invoice closes when nothing is left due, at the
 * moment that happens, and reopens (date_closed back to null) when a refund, an unapplied payment
 * or a larger total leaves something due again. A void invoice is closed; a draft never is.
 */
export function closedDate(status: string, total: Amount, paid: Amount, current: string | null, now: string): string | null {
  if (status === 'void') return current ?? now;
  if (status === 'draft') return null;
  return total.minus(paid).lte(0) ? (current ?? now) : null;
}
