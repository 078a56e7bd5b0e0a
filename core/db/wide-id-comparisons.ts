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
import { INT32_MAX, INT32_MIN } from '../kernel/input-rules';


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
    return this.transformer.transformNode(args.node);
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

function isIdColumn(node: OperationNode): boolean {
  const column = ReferenceNode.is(node) ? node.column : node;
  return ColumnNode.is(column) && /^(id|.+_id)$/.test(column.column.name);
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
