import {
  CommonTableExpressionNameNode,
  CommonTableExpressionNode,
  CompiledQuery,
  FromNode,
  LimitNode,
  OperationNode,
  QueryResult,
  SelectionNode,
  SelectQueryNode,
  TableNode,
  UnknownRow,
  ValueNode,
  WithNode,
} from 'kysely';
import { ExtensionSession } from './extension-session';
import { RefusedQuery } from './query-guard';

/** The name the host gives an update's or delete's answer when it bounds it (not a table an extension may name: not in its manifest). */
const ANSWER = 'tally_bounded_answer';

/**
 * An answer is read whole into the host before the sandbox gets it, so its size is the host's
 * memory: a join of an extension's own tables (three of 1,000 rows are a billion rows) would fill
 * it within the call's deadline on PostgreSQL. So what an extension's statement answers is bounded
 * in the database, and an answer of more than `max` rows is refused (`refuseBeyond`), never cut
 * short without a word:
 * - a select: its own limit when that is at most `max` rows, else `max + 1`;
 * - on PostgreSQL, an update or delete with `returning`: answered through
 *   `with answer as (<it>) select * from answer limit max + 1` (on SQLite, which has no such
 *   statement, the statement's time limit bounds it).
 * Selects inside a statement (subqueries) answer the database, not the host, and are left alone;
 * an insert answers no more rows than it sends.
 */
export function boundRows(node: OperationNode, max: number, dialect: 'sqlite' | 'postgres'): Bounded {
  if (node.kind === 'SelectQueryNode') return boundSelect(node as SelectQueryNode, max);
  const returns = (node as { returning?: unknown }).returning !== undefined;
  if (dialect === 'postgres' && returns && (node.kind === 'UpdateQueryNode' || node.kind === 'DeleteQueryNode')) {
    const answer = SelectQueryNode.create(WithNode.create(CommonTableExpressionNode.create(CommonTableExpressionNameNode.create(ANSWER), node)));
    return {
      node: { ...answer, from: FromNode.create([TableNode.create(ANSWER)]), selections: [SelectionNode.createSelectAll()], limit: LimitNode.create(ValueNode.create(max + 1)) } as OperationNode,
      bounded: 'write',
    };
  }
  return { node, bounded: 'no' };
}

/** A statement as boundRows leaves it: not bounded, a select bounded, or a write whose answer is bounded. */
export interface Bounded {
  readonly node: OperationNode;
  readonly bounded: 'no' | 'select' | 'write';
}

function boundSelect(select: SelectQueryNode, max: number): Bounded {
  const given = select.limit?.limit;
  if (given !== undefined) {
    const value = given.kind === 'ValueNode' ? Number((given as ValueNode).value) : NaN;
    if (!Number.isInteger(value) || value < 0) throw new RefusedQuery("A select's limit must be a whole number of rows.");
    if (value <= max) return { node: select, bounded: 'no' };
  }
  return { node: { ...select, limit: LimitNode.create(ValueNode.create(max + 1)) } as OperationNode, bounded: 'select' };
}

/**
 * Runs a statement boundRows left, in the call's session. A write whose answer is refused is
 * undone first (a savepoint around it): refused means not done, even when the extension catches
 * the error and its call goes on to succeed.
 */
export async function runBounded(session: ExtensionSession, statement: Bounded, compiled: CompiledQuery<UnknownRow>, max: number): Promise<QueryResult<UnknownRow>> {
  if (statement.bounded === 'no') return session.query(compiled);
  if (statement.bounded === 'select') return refuseBeyond(await session.query(compiled), max);
  await session.query(CompiledQuery.raw(`savepoint ${ANSWER}`));
  const answer = await session.query(compiled);
  if (answer.rows.length > max) {
    await session.query(CompiledQuery.raw(`rollback to savepoint ${ANSWER}`));
    return refuseBeyond(answer, max);
  }
  await session.query(CompiledQuery.raw(`release savepoint ${ANSWER}`));
  return answer;
}

/** The answer of a statement boundRows bounded: refused when it had more than `max` rows to give. */
export function refuseBeyond<T extends { rows: readonly unknown[] }>(answer: T, max: number): T {
  if (answer.rows.length > max) throw new RefusedQuery(`A statement may answer at most ${max} rows; page through more with limit and offset.`);
  return answer;
}
