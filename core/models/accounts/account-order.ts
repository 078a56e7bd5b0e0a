import { TallyError } from '../../kernel/tally-error';
import { Direction } from '../../billing/ordering';

/** The fields accounts/getListCc and getListAch sort by (`sortby`), each an account column. */
const SORTABLE = ['last_name', 'first_name', 'last4', 'expiration', 'status', 'date_added', 'id'] as const;

/**
 * The reference's `$sortby` and `$order` of the account lists, read as a column and a direction.
 * Anything else is a 400 naming what is supported, never a list silently sorted another way.
 */
export function accountSort(sortBy: string, order: string): [string, Direction] {
  const errors: Record<string, Record<string, string>> = {};
  if (!(SORTABLE as readonly string[]).includes(sortBy)) errors.sortby = { format: `Tally sorts accounts by ${SORTABLE.join(', ')}.` };
  const direction = order.toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') errors.order = { format: 'The order must be asc or desc.' };
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  return [sortBy, direction as Direction];
}
