import {
  AliasNode,
  ColumnUpdateNode,
  CompiledQuery,
  DatabaseConnection,
  InsertQueryNode,
  OperationNode,
  PrimitiveValueListNode,
  TableNode,
  UpdateQueryNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
} from 'kysely';
import { FieldErrors } from '../kernel/errors';
import { TallyError } from '../kernel/tally-error';
import { INT32_MAX, INT32_MIN } from './int32';
import { isMoneyColumn, MONEY_INTEGER_DIGITS } from './money-columns';
import { beyondInt32 } from './wide-id-comparisons';
import type { DialectName } from './dialect-name';

/** What one column can hold, as both databases will hold it. */
type Limit = { kind: 'text'; max?: number } | { kind: 'int32' } | { kind: 'decimal'; integerDigits: number } | { kind: 'other' };

const INTROSPECT = {
  postgres: `select table_name as "table", column_name as "column", data_type as "type", character_maximum_length as "length", numeric_precision as "precision", numeric_scale as "scale"
             from information_schema.columns where table_schema = current_schema()`,
  sqlite: `select m.name as "table", p.name as "column", lower(p.type) as "type" from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table'`,
};

/**
 * Every limit the schema sets on a written value becomes the contract's 400 with a field error,
 * checked the same way on both databases before the write reaches either: text longer than its
 * varchar column, a NUL byte in any text (PostgreSQL cannot store one; SQLite would), a whole
 * number beyond a 32-bit column, an amount beyond numeric(30,4). The limits are read from the
 * database's own catalogue, so a column a later migration adds is covered too.
 */
export class ColumnLimits {
  private tables?: Map<string, Map<string, Limit>>;

  constructor(private readonly dialect: DialectName) {}

  /**
   * Throws (or, while the limits are first read, rejects with) the 400 when an insert or update in
   * `query` writes a value its column cannot hold. Answers undefined at once, without a promise,
   * for every other query and for a write to a table whose limits are known (the hot path).
   */
  check(query: CompiledQuery, connection: DatabaseConnection): Promise<void> | undefined {
    const node = query.query as OperationNode;
    // Most statements are selects, which neither write nor change the schema.
    if (node.kind === 'SelectQueryNode') return undefined;
    if (isSchemaChange(node, query.sql)) this.tables = undefined;
    const plan = plans.get(node);
    const writes = plan ? plannedValues(plan, query.parameters) : writtenValues(node);
    if (!writes) return undefined;
    const known = this.tables?.get(writes.table);
    if (known) return refuseBeyond(known, writes);
    return this.checkWrites(writes, connection);
  }

  private async checkWrites(writes: Writes, connection: DatabaseConnection): Promise<void> {
    let columns = (await this.load(connection)).get(writes.table);
    if (!columns) columns = (await this.load(connection, true)).get(writes.table);
    if (columns) refuseBeyond(columns, writes);
  }

  private async load(connection: DatabaseConnection, again = false): Promise<Map<string, Map<string, Limit>>> {
    if (this.tables && !again) return this.tables;
    const { rows } = await connection.executeQuery<Record<string, any>>(CompiledQuery.raw(INTROSPECT[this.dialect]));
    const tables = new Map<string, Map<string, Limit>>();
    for (const row of rows) {
      if (!tables.has(row.table)) tables.set(row.table, new Map());
      tables.get(row.table)!.set(row.column, this.limitOf(row));
    }
    this.tables = tables;
    return tables;
  }

  private limitOf(row: Record<string, any>): Limit {
    const type = String(row.type);
    if (type === 'integer' || type === 'int' || type === 'int4') return { kind: 'int32' };
    const varchar = /^(varchar|character varying)\s*(\((\d+)\))?$/.exec(type);
    if (varchar) return { kind: 'text', max: row.length != null ? Number(row.length) : varchar[3] ? Number(varchar[3]) : undefined };
    if (type === 'numeric' && row.precision != null) return { kind: 'decimal', integerDigits: Number(row.precision) - Number(row.scale ?? 0) };
    // SQLite would store any number of digits, PostgreSQL refuses more than 26 before the point:
    // held to PostgreSQL's limit on both, so an absurd amount is the same 400 everywhere.
    if (isMoneyColumn(row.table, row.column)) return { kind: 'decimal', integerDigits: MONEY_INTEGER_DIGITS };
    if (type === 'text' || type.startsWith('char')) return { kind: 'text' };
    return { kind: 'other' };
  }
}

/** Throws the 400 naming every written column whose value its limit refuses. */
function refuseBeyond(columns: Map<string, Limit>, writes: Writes): undefined {
  let errors: FieldErrors | undefined;
  for (const [column, value] of writes.values) {
    const problem = refusal(columns.get(column), value);
    if (problem) (errors ??= {})[column] = problem;
  }
  if (errors) throw TallyError.invalid(errors);
  return undefined;
}

function refusal(limit: Limit | undefined, value: unknown): Record<string, string> | null {
  if (typeof value === 'string' && value.includes('\u0000')) return { format: 'The value must not contain NUL bytes.' };
  if (!limit) return null;
  // A text has no more characters than UTF-16 units, so only a long one needs counting.
  if (limit.kind === 'text' && limit.max !== undefined && typeof value === 'string' && value.length > limit.max && codePoints(value) > limit.max) {
    return { length: `The value may be at most ${limit.max} characters long.` };
  }
  if (limit.kind === 'int32' && beyondInt32(value)) return { range: `The value must be a whole number from ${INT32_MIN} to ${INT32_MAX}.` };
  if (limit.kind === 'decimal' && integerDigits(value) > limit.integerDigits) {
    return { range: `The amount is too large: at most ${limit.integerDigits} digits before the decimal point.` };
  }
  return null;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function integerDigits(value: unknown): number {
  const match = /^\s*[-+]?0*(\d*)(\.\d*)?\s*$/.exec(typeof value === 'number' ? value.toFixed(0) : String(value));
  return match ? match[1].length : 0;
}

interface Writes {
  readonly table: string;
  readonly values: Array<[string, unknown]>;
}

/** The table and the (column, literal value) pairs an insert or update writes; null for anything else. */
function writtenValues(node: OperationNode): Writes | null {
  if (InsertQueryNode.is(node) && node.into && node.columns && node.values && ValuesNode.is(node.values)) {
    const names = node.columns.map((c) => c.column.name);
    const values: Array<[string, unknown]> = [];
    for (const row of node.values.values) {
      const items = PrimitiveValueListNode.is(row) ? row.values : ValueListNode.is(row) ? row.values.map(literal) : [];
      items.forEach((value, i) => names[i] !== undefined && values.push([names[i], value]));
    }
    return { table: tableName(node.into), values };
  }
  if (UpdateQueryNode.is(node) && node.table && node.updates) {
    const table = AliasNode.is(node.table) ? node.table.node : node.table;
    if (!TableNode.is(table)) return null;
    const values = node.updates.filter((u) => ColumnUpdateNode.is(u)).map((u): [string, unknown] => [(u.column as any).column.name, literal(u.value)]);
    return { table: tableName(table), values };
  }
  return null;
}

/** A written column and where its value is: a parameter of the compiled query, or a constant of its tree. */
type PlannedColumn = { readonly column: string; readonly parameter: number } | { readonly column: string; readonly parameter: -1; readonly value: unknown };

interface WritePlan {
  readonly table: string;
  readonly columns: readonly PlannedColumn[];
}

/** Templates compiled once and run with other parameters (reused-write.ts), by their tree. */
const plans = new WeakMap<OperationNode, WritePlan>();

/**
 * Reads a write compiled once with stand-in objects for its values (reused-write.ts): the query's
 * tree keeps the stand-ins, so each later run is checked on its own parameters, found where the
 * stand-ins were compiled. A constant of the query is checked as it is.
 */
export function planWrites(template: CompiledQuery): void {
  const writes = writtenValues(template.query as OperationNode);
  if (!writes) return;
  const columns = writes.values.map(([column, value]): PlannedColumn => {
    const parameter = value !== null && typeof value === 'object' ? template.parameters.indexOf(value) : -1;
    return parameter >= 0 ? { column, parameter } : { column, parameter: -1, value };
  });
  plans.set(template.query, { table: writes.table, columns });
}

function plannedValues(plan: WritePlan, parameters: readonly unknown[]): Writes {
  return { table: plan.table, values: plan.columns.map((c) => [c.column, c.parameter === -1 ? (c as { value: unknown }).value : parameters[c.parameter]]) };
}

function literal(node: OperationNode): unknown {
  return ValueNode.is(node) ? node.value : undefined;
}

function tableName(node: TableNode): string {
  return node.table.identifier.name;
}

function isSchemaChange(node: OperationNode, text: string): boolean {
  return /^(CreateTable|AlterTable|DropTable)Node$/.test(node.kind) || (node.kind === 'RawNode' && /^\s*(create|alter|drop)\s/i.test(text));
}
