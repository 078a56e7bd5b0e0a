import {
  BinaryOperationNode,
  ColumnNode,
  KyselyPlugin,
  OperationNode,
  OperationNodeTransformer,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  PrimitiveValueListNode,
  QueryResult,
  ReferenceNode,
  RootOperationNode,
  UnknownRow,
  ValueListNode,
  ValueNode,
  sql,
} from 'kysely';
import { INT32_MAX, INT32_MIN } from './int32';

/** True for a whole number (or its text) outside the 32-bit range. */
export function beyondInt32(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && (value < INT32_MIN || value > INT32_MAX);
  if (typeof value === 'bigint') return value < BigInt(INT32_MIN) || value > BigInt(INT32_MAX);
  if (typeof value === 'string' && /^\s*-?\d{1,18}\s*$/.test(value)) return beyondInt32(Number(value));
  return false;
}

/**
 * Looking a record up by an id no 32-bit column can hold (`where id = 2147483648`) simply finds
 * nothing on SQLite, but PostgreSQL refuses to read the number as the column's type and the
 * whole call fails. Comparing such a value as a bigint makes PostgreSQL find nothing too, so a
 * model's "no such client" rule answers its 400 on both databases.
 *
 * Id columns are known by name, as the schema names them: `id` and `<something>_id`.
 */
export class WideIdComparisons implements KyselyPlugin {
  private readonly transformer = new WideningTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    // Only lookups compare ids; an insert's values are checked by ColumnLimits. Skipping the
    // rest keeps the rewrite off the hot path of adds (a 10-line invoice is 20 inserts).
    const kind = args.node.kind;
    if (kind !== 'SelectQueryNode' && kind !== 'UpdateQueryNode' && kind !== 'DeleteQueryNode') return args.node;
    // Rebuilding a query costs more than running a small one: only when it holds such a value.
    return holdsWideValue(args.node) ? this.transformer.transformNode(args.node) : args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

class WideningTransformer extends OperationNodeTransformer {
  protected override transformBinaryOperation(node: BinaryOperationNode): BinaryOperationNode {
    const transformed = super.transformBinaryOperation(node);
    const { leftOperand, rightOperand } = transformed;
    if (isIdColumn(leftOperand)) return { ...transformed, rightOperand: widened(rightOperand) };
    if (isIdColumn(rightOperand)) return { ...transformed, leftOperand: widened(leftOperand) };
    return transformed;
  }
}

/** A plain walk over the query's nodes, allocating nothing: does any literal lie beyond 32 bits? */
function holdsWideValue(node: unknown): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(holdsWideValue);
  const kind = (node as { kind?: string }).kind;
  if (kind === 'ValueNode') return beyondInt32((node as ValueNode).value);
  if (kind === 'PrimitiveValueListNode') return (node as PrimitiveValueListNode).values.some(beyondInt32);
  for (const key in node) if (holdsWideValue((node as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * Columns named like ids that hold text: a gateway's or a request's reference, an event's UUID.
 * Digits compared with them must stay text, or PostgreSQL refuses `varchar = bigint`. (The events
 * table's own `id` is a UUID too; its model refuses anything else before it queries.)
 */
const TEXT_ID_COLUMNS = new Set(['reference_id', 'request_id', 'event_id', 'gateway_transaction_id']);

function isIdColumn(node: OperationNode): boolean {
  const column = ReferenceNode.is(node) ? node.column : node;
  if (!ColumnNode.is(column)) return false;
  const name = column.column.name;
  return /^(id|.+_id)$/.test(name) && !TEXT_ID_COLUMNS.has(name);
}

function widened(node: OperationNode): OperationNode {
  if (ValueNode.is(node) && beyondInt32(node.value)) return asBigint(node.value);
  if (PrimitiveValueListNode.is(node) && node.values.some(beyondInt32)) {
    return ValueListNode.create(node.values.map((value) => (beyondInt32(value) ? asBigint(value) : ValueNode.create(value))));
  }
  if (ValueListNode.is(node) && node.values.some((v) => ValueNode.is(v) && beyondInt32(v.value))) {
    return ValueListNode.create(node.values.map((v) => (ValueNode.is(v) && beyondInt32(v.value) ? asBigint(v.value) : v)));
  }
  return node;
}

function asBigint(value: unknown): OperationNode {
  return sql`cast(${String(value).trim()} as bigint)`.toOperationNode();
}
