import { TallyError } from '../kernel/tally-error';

export type OrderBy = Record<string, unknown>;
export type Direction = 'asc' | 'desc';

/**
 * Reads the reference's `$order_by` parameter (`order_by[date_due]=ASC`): field → ASC | DESC, in
 * the caller's order. Only the fields a list names in `allowed` (field → column) may be used, so
 * no caller text ever reaches SQL; anything else is a 400 naming the parameter.
 */
export function readOrder(orderBy: unknown, allowed: Record<string, string>, parameter = 'order_by'): Array<[string, Direction]> {
  const given = orderBy && typeof orderBy === 'object' && !Array.isArray(orderBy) ? (orderBy as OrderBy) : null;
  if (given === null) throw badOrder(parameter, allowed);
  const order: Array<[string, Direction]> = [];
  for (const [field, direction] of Object.entries(given)) {
    const column = Object.hasOwn(allowed, field) ? allowed[field] : undefined;
    const dir = String(direction).toLowerCase();
    if (!column || (dir !== 'asc' && dir !== 'desc')) throw badOrder(parameter, allowed);
    order.push([column, dir]);
  }
  return order;
}

function badOrder(parameter: string, allowed: Record<string, string>): TallyError {
  return TallyError.invalid({
    [parameter]: { format: `Order by one or more of ${Object.keys(allowed).join(', ')}, each ASC or DESC, e.g. ${parameter}[${Object.keys(allowed)[0]}]=ASC.` },
  });
}

/** Applies a read order to a Kysely select, with `id` last so pages never overlap. */
export function ordered<Q extends { orderBy(column: any, direction?: any): Q }>(query: Q, order: Array<[string, Direction]>, idColumn: string): Q {
  let q = query;
  for (const [column, direction] of order) q = q.orderBy(column, direction);
  return q.orderBy(idColumn, order[0]?.[1] ?? 'asc');
}

/**
 * Reads the reference's `$filters` parameter against the filters a list knows; an unknown filter
 * is a 400 naming it rather than being silently ignored (which would answer the unfiltered list).
 */
export function readFilters(filters: unknown, known: readonly string[]): Record<string, string> {
  if (filters === null || filters === undefined || filters === '') return {};
  if (typeof filters !== 'object') throw TallyError.invalid({ filters: { format: 'Filters are sent as filters[name]=value.' } });
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters as object)) {
    if (!known.includes(name)) {
      throw TallyError.invalid({ [`filters[${name}]`]: { unknown: known.length ? `Unknown filter. Known filters: ${known.join(', ')}.` : 'This list takes no filters.' } });
    }
    if (value !== undefined && value !== null && value !== '') result[name] = String(value);
  }
  return result;
}
