import { TallyError } from '../../../../host/extensions/kit';

/**
 * A Stripe object id of the expected kind (`pm_...`, `pi_...`): it becomes part of a request path
 * (/v1/payment_methods/<id>/attach), so anything else — a slash, `..`, a query — is refused here
 * before it can address another of Stripe's resources.
 */
export function stripeId(value: unknown, prefix: 'pm' | 'pi' | 'cus', field: string): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!new RegExp(`^${prefix}_[A-Za-z0-9_]{1,200}$`).test(text)) throw TallyError.invalid({ [field]: { format: `Please give Stripe's ${prefix}_... id.` } });
  return text;
}
