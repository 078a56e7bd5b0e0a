import { LimitNode, OperationNode, ValueNode } from 'kysely';
import { RefusedQuery } from './query-guard';

/**
 * A select's answer is read whole into the host before the sandbox gets it, so its size is the
 * host's memory: a join of an extension's own tables (three of 1,000 rows are a billion rows) would
 * fill it within the call's deadline on PostgreSQL. So every select an extension sends is bounded
 * in the database: its own limit when that is at most `max` rows, else `max + 1` — and an answer
 * of more than `max` rows is refused (`refuseBeyond`), never cut short without a word. Selects
 * inside it (subqueries) answer the database, not the host, and are left alone.
 */
export function boundRows(node: OperationNode, max: number): { node: OperationNode; bounded: boolean } {
  if (node.kind !== 'SelectQueryNode') return { node, bounded: false };
  const select = node as OperationNode & { limit?: LimitNode };
  const given = select.limit?.limit;
  if (given !== undefined) {
    const value = given.kind === 'ValueNode' ? Number((given as ValueNode).value) : NaN;
    if (!Number.isInteger(value) || value < 0) throw new RefusedQuery('A select\'s limit must be a whole number of rows.');
    if (value <= max) return { node, bounded: false };
  }
  return { node: { ...select, limit: LimitNode.create(ValueNode.create(max + 1)) } as OperationNode, bounded: true };
}

/** The answer of a select boundRows bounded: refused when the select had more than `max` rows to give. */
export function refuseBeyond<T extends { rows: readonly unknown[] }>(answer: T, max: number): T {
  if (answer.rows.length > max) throw new RefusedQuery(`A select may answer at most ${max} rows; page through more with limit and offset.`);
  return answer;
}
