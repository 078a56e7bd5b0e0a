/** Stripe's card brands as the core's account types (accounts/getCc `type`). */
const BRANDS: Record<string, string> = { visa: 'visa', mastercard: 'mc', amex: 'amex' };

export function accountType(brand: unknown): string {
  return BRANDS[String(brand)] ?? 'other';
}

/** A PaymentMethod's expiry as the core's yyyymm. */
export function expirationOf(card: { exp_month?: unknown; exp_year?: unknown }): string {
  return `${Number(card.exp_year)}${String(Number(card.exp_month)).padStart(2, '0')}`;
}
