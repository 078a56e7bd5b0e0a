import { AndNode, BinaryOperationNode, ColumnNode, FunctionNode, OnNode, OperationNode, OperatorNode, OPERATORS, ParensNode, ReferenceNode, TableNode, ValueNode, WhereNode } from 'kysely';
import { STATEMENT_CLOCK } from '../../../core/db/statement-clock';

/** A query an extension may not run; the call fails with the reason (a 500 to the API caller). */
export class RefusedQuery extends Error {
  override name = 'RefusedQuery';
}

export interface QueryScope {
  /** The tables the manifest declares (lowercase). */
  readonly tables: ReadonlySet<string>;
  readonly companyId: number;
  /** Migrations may change the schema of the extension's own tables; calls only read and write rows. */
  readonly schema: boolean;
  /** SQLite: every table read stops the statement past this many milliseconds (statement-clock.ts). */
  readonly statementMs?: number;
}

const DATA = [
  'AliasNode',
  'ColumnNode',
  'IdentifierNode',
  'SchemableIdentifierNode',
  'ReferenceNode',
  'SelectQueryNode',
  'SelectionNode',
  'TableNode',
  'FromNode',
  'SelectAllNode',
  'AndNode',
  'OrNode',
  'ValueNode',
  'ValueListNode',
  'PrimitiveValueListNode',
  'ParensNode',
  'JoinNode',
  'OperatorNode',
  'WhereNode',
  'InsertQueryNode',
  'DeleteQueryNode',
  'ReturningNode',
  'OrderByNode',
  'OrderByItemNode',
  'GroupByNode',
  'GroupByItemNode',
  'UpdateQueryNode',
  'ColumnUpdateNode',
  'LimitNode',
  'OffsetNode',
  'OnConflictNode',
  'HavingNode',
  'OnNode',
  'ValuesNode',
  'DefaultInsertValueNode',
  'AggregateFunctionNode',
  'BinaryOperationNode',
  'UnaryOperationNode',
  'FunctionNode',
  'CaseNode',
  'WhenNode',
  'TupleNode',
  'CastNode',
  'DataTypeNode',
  'SelectModifierNode',
  'SetOperationNode',
  'OrActionNode',
  'UsingNode',
];
const SCHEMA = [
  'CreateTableNode',
  'AddColumnNode',
  'ColumnDefinitionNode',
  'DropTableNode',
  'CreateIndexNode',
  'DropIndexNode',
  'PrimaryKeyConstraintNode',
  'UniqueConstraintNode',
  'ReferencesNode',
  'CheckConstraintNode',
  'AlterTableNode',
  'DropColumnNode',
  'RenameColumnNode',
  'AlterColumnNode',
  'AddConstraintNode',
  'DropConstraintNode',
  'ForeignKeyConstraintNode',
  'DefaultValueNode',
  'AddIndexNode',
  'ListNode',
];
const ROOTS = new Set(['SelectQueryNode', 'InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode']);
const SCHEMA_ROOTS = new Set(['CreateTableNode', 'DropTableNode', 'CreateIndexNode', 'DropIndexNode', 'AlterTableNode']);
const DATA_KINDS = new Set(DATA);
const SCHEMA_KINDS = new Set([...DATA, ...SCHEMA]);

/** Functions a query may call: plain computations, none that reads files, sleeps or changes settings. */
const FUNCTIONS = new Set([
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'total',
  'coalesce',
  'ifnull',
  'nullif',
  'lower',
  'upper',
  'length',
  'trim',
  'ltrim',
  'rtrim',
  'substr',
  'substring',
  'replace',
  'instr',
  'abs',
  'round',
  'concat',
]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const DATA_TYPE =
  /^(?:integer|int|bigint|smallint|serial|bigserial|text|boolean|real|double precision|date|datetime|timestamp|timestamptz|blob|bytea|json|jsonb|uuid|(?:varchar|char)\(\d{1,5}\)|(?:numeric|decimal)(?:\(\d{1,3}(?:, ?\d{1,3})?\))?)$/i;
/** Text fields the compiler writes into SQL as they are: each has its own short list. */
const WORDS: Record<string, (value: string) => boolean> = {
  'IdentifierNode.name': (v) => IDENTIFIER.test(v),
  'OperatorNode.operator': (v) => (OPERATORS as readonly string[]).includes(v),
  'FunctionNode.func': (v) => FUNCTIONS.has(v.toLowerCase()),
  'AggregateFunctionNode.func': (v) => ['count', 'sum', 'avg', 'min', 'max'].includes(v.toLowerCase()),
  'DataTypeNode.dataType': (v) => DATA_TYPE.test(v),
  'JoinNode.joinType': (v) => ['InnerJoin', 'LeftJoin', 'RightJoin', 'FullJoin', 'CrossJoin'].includes(v),
  'OrderByItemNode.nulls': (v) => v === 'first' || v === 'last',
  'ReferencesNode.onDelete': (v) => ['cascade', 'set null', 'set default', 'restrict', 'no action'].includes(v),
  'ReferencesNode.onUpdate': (v) => ['cascade', 'set null', 'set default', 'restrict', 'no action'].includes(v),
  'SelectModifierNode.modifier': (v) => v === 'Distinct',
  'OrActionNode.action': (v) => ['or ignore', 'or abort', 'or fail', 'ignore'].includes(v),
  'SetOperationNode.operator': (v) => ['union', 'intersect', 'except'].includes(v),
};
const MAX_NODES = 5000;
const MAX_DEPTH = 64;

/**
 * Checks an extension's query (a Kysely operation tree, built in the sandbox) and scopes it to
 * the calling company, before the host compiles it with its own compiler:
 * - only the node kinds of data statements (plus schema changes in migrations): no raw SQL, no
 *   transaction control, PRAGMA, ATTACH, CTEs, EXPLAIN, views or schemas;
 * - every table is one the manifest declares, never a schema-qualified one;
 * - every text the compiler writes verbatim comes from a short list (operators, functions, types);
 * - every table read, updated or deleted gets `company_id = <caller>` added; every inserted row
 *   gets the caller's company_id whatever it said; company_id cannot be updated, and an upsert
 *   only updates the caller's rows. REPLACE, which deletes a conflicting row, is refused.
 */
export function guardQuery(node: unknown, scope: QueryScope): OperationNode {
  const root = node as { kind?: unknown };
  const roots = scope.schema ? new Set([...ROOTS, ...SCHEMA_ROOTS]) : ROOTS;
  if (!root || typeof root.kind !== 'string' || !roots.has(root.kind))
    throw new RefusedQuery(
      `Extensions may only run ${scope.schema ? 'data statements and schema changes of their own tables' : 'select, insert, update and delete statements'}, not ${String(root?.kind)}.`,
    );
  const counter = { nodes: 0 };
  return visit(node, scope, scope.schema ? SCHEMA_KINDS : DATA_KINDS, 0, counter) as OperationNode;
}

function visit(value: unknown, scope: QueryScope, kinds: Set<string>, depth: number, counter: { nodes: number }): unknown {
  if (depth > MAX_DEPTH || ++counter.nodes > MAX_NODES) throw new RefusedQuery('The query is too large or too deeply nested.');
  if (Array.isArray(value)) return value.map((v) => visit(v, scope, kinds, depth + 1, counter));
  if (typeof value !== 'object' || value === null) return value;
  const node = value as Record<string, unknown>;
  const kind = node.kind;
  if (kind === 'RawNode') return checkRaw(node);
  if (typeof kind !== 'string' || !kinds.has(kind)) throw new RefusedQuery(`Extensions may not use ${typeof kind === 'string' ? kind : 'a value without a kind'} in a query.`);
  if (kind === 'ValueNode') return checkValue(node);
  if (kind === 'PrimitiveValueListNode') return checkPrimitives(node);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(node)) {
    if (key === 'kind') out[key] = field;
    else if (typeof field === 'string') {
      const allowed = WORDS[`${kind}.${key}`];
      if (!allowed || !allowed(field)) throw new RefusedQuery(`${kind}.${key} may not be ${JSON.stringify(field).slice(0, 60)}.`);
      out[key] = field;
    } else if (typeof field === 'number' || typeof field === 'boolean' || field === undefined || field === null) out[key] = field;
    else out[key] = visit(field, scope, kinds, depth + 1, counter);
  }
  if (kind === 'SchemableIdentifierNode' && out.schema !== undefined) throw new RefusedQuery('Tables are named without a schema.');
  if (kind === 'TableNode') checkTable(out, scope);
  return scopeToCompany(scope.schema ? checkSchemaChange(out, scope) : out, scope);
}

/** Raw SQL only as Kysely writes a sort direction. */
function checkRaw(node: Record<string, unknown>): unknown {
  const fragments = node.sqlFragments;
  const parameters = node.parameters;
  if (Array.isArray(fragments) && fragments.length === 1 && ['asc', 'desc'].includes(String(fragments[0]).toLowerCase()) && Array.isArray(parameters) && parameters.length === 0) {
    return { kind: 'RawNode', sqlFragments: [String(fragments[0]).toLowerCase()], parameters: [] };
  }
  throw new RefusedQuery('Extensions may not send raw SQL (sql`...`); build the query with ctx.db.');
}

function primitive(v: unknown): boolean {
  return v === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof v) || v instanceof Date || v instanceof Uint8Array;
}

function checkValue(node: Record<string, unknown>): unknown {
  if (!primitive(node.value)) throw new RefusedQuery('A query value must be text, a number, a boolean, null, a Date or bytes.');
  if (node.immediate === true && !(node.value === null || ['string', 'number', 'boolean'].includes(typeof node.value)))
    throw new RefusedQuery('An inline value must be text, a number, a boolean or null.');
  const value = node.value instanceof Uint8Array ? Buffer.from(node.value) : node.value;
  return node.immediate === true ? ValueNode.createImmediate(value) : ValueNode.create(value);
}

function checkPrimitives(node: Record<string, unknown>): unknown {
  if (!Array.isArray(node.values) || node.values.length > MAX_NODES || !node.values.every(primitive)) throw new RefusedQuery('A list of values must hold plain values.');
  return { kind: 'PrimitiveValueListNode', values: node.values.map((v) => (v instanceof Uint8Array ? Buffer.from(v) : v)) };
}

function checkTable(node: Record<string, unknown>, scope: QueryScope): void {
  const identifier = (node.table as Record<string, any> | undefined)?.identifier?.name;
  if (typeof identifier !== 'string' || !scope.tables.has(identifier.toLowerCase())) {
    throw new RefusedQuery(`The table ${JSON.stringify(String(identifier))} is not one of the extension's own tables (its manifest's "tables").`);
  }
}

const isCompanyColumn = (column: unknown) => String((column as any)?.column?.name ?? '').toLowerCase() === 'company_id';

/**
 * `<ref>.company_id = <caller>`, and on SQLite `tally_within_ms(<limit>, <ref>.company_id)`: naming a
 * column of the table places the check in that table's loop, so a join of several tables checks
 * the clock once for each combination of rows it considers.
 */
function companyIs(ref: string, scope: QueryScope): OperationNode {
  const column = () => ReferenceNode.create(ColumnNode.create('company_id'), TableNode.create(ref));
  const owned = BinaryOperationNode.create(column(), OperatorNode.create('='), ValueNode.create(scope.companyId));
  if (scope.statementMs === undefined) return owned;
  return AndNode.create(owned, FunctionNode.create(STATEMENT_CLOCK, [ValueNode.createImmediate(scope.statementMs), column()]));
}

/** The name a table is referred to by in its query: its alias, or its own name; null for a subquery. */
function referenceName(item: any): string | null {
  if (item?.kind === 'TableNode') return item.table.identifier.name;
  if (item?.kind === 'AliasNode' && item.node?.kind === 'TableNode') return item.alias?.name ?? null;
  return null;
}

/**
 * `(<the query's own condition>) and <condition>`. The parentheses matter: the compiler writes an
 * AndNode without them, so `a or b` and the company check would read `a or (b and check)`.
 */
function andAlso(existing: OperationNode | undefined, condition: OperationNode): OperationNode {
  return existing ? AndNode.create(ParensNode.create(existing), condition) : condition;
}

function addWhere(node: any, refs: Array<string | null>, scope: QueryScope): any {
  let where = node.where?.where;
  for (const ref of refs) if (ref) where = andAlso(where, companyIs(ref, scope));
  return { ...node, where: where ? WhereNode.create(where) : undefined };
}

function scopeJoins(node: any, scope: QueryScope): any {
  if (!node.joins) return node;
  const crossed: string[] = [];
  const joins = node.joins.map((join: any) => {
    const ref = referenceName(join.table);
    if (!ref) return join;
    if (join.joinType === 'CrossJoin' || !join.on) return (crossed.push(ref), join);
    return { ...join, on: OnNode.create(andAlso(join.on.on, companyIs(ref, scope))) };
  });
  return addWhere({ ...node, joins }, crossed, scope);
}

function scopeToCompany(node: any, scope: QueryScope): any {
  switch (node.kind) {
    case 'SelectQueryNode':
      return scopeJoins(addWhere(node, (node.from?.froms ?? []).map(referenceName), scope), scope);
    case 'DeleteQueryNode':
      return scopeJoins(addWhere(node, [...(node.from?.froms ?? []), ...(node.using?.tables ?? [])].map(referenceName), scope), scope);
    case 'UpdateQueryNode':
      if ((node.updates ?? []).some((u: any) => isCompanyColumn(u.column))) throw new RefusedQuery('company_id is set by the host and cannot be updated.');
      return scopeJoins(addWhere(node, [referenceName(node.table), ...(node.from?.froms ?? []).map(referenceName)], scope), scope);
    case 'InsertQueryNode':
      return scopeInsert(node, scope);
    default:
      return node;
  }
}

function scopeInsert(node: any, scope: QueryScope): any {
  if (node.replace) throw new RefusedQuery('REPLACE deletes conflicting rows; use onConflict(...).doUpdateSet(...) instead.');
  const table = referenceName(node.into);
  if (!table) throw new RefusedQuery('An insert names its table.');
  let onConflict = node.onConflict;
  if (onConflict?.updates) {
    if (onConflict.updates.some((u: any) => isCompanyColumn(u.column))) throw new RefusedQuery('company_id is set by the host and cannot be updated.');
    onConflict = addWhereAs(onConflict, 'updateWhere', companyIs(table, scope));
  }
  if (node.defaultValues || !node.values)
    return {
      ...node,
      defaultValues: undefined,
      columns: [ColumnNode.create('company_id')],
      values: { kind: 'ValuesNode', values: [{ kind: 'PrimitiveValueListNode', values: [scope.companyId] }] },
      onConflict,
    };
  if (node.values.kind !== 'ValuesNode') throw new RefusedQuery('Insert rows as values; inserting the result of a select is not available to extensions.');
  const columns = [...(node.columns ?? [])];
  let at = columns.findIndex(isCompanyColumn);
  if (at === -1) {
    columns.push(ColumnNode.create('company_id'));
    at = columns.length - 1;
  }
  const values = node.values.values.map((row: any) => {
    const cells = [...row.values];
    while (cells.length < columns.length) cells.push(row.kind === 'PrimitiveValueListNode' ? null : ValueNode.create(null));
    cells[at] = row.kind === 'PrimitiveValueListNode' ? scope.companyId : ValueNode.create(scope.companyId);
    return { ...row, values: cells };
  });
  return { ...node, columns, values: { ...node.values, values }, onConflict };
}

function addWhereAs(node: any, field: string, condition: OperationNode): any {
  return { ...node, [field]: WhereNode.create(andAlso(node[field]?.where, condition)) };
}

/** In migrations: every table the extension creates carries company_id, which stays. */
function checkSchemaChange(node: any, scope: QueryScope): any {
  if (node.kind === 'CreateTableNode') {
    if (node.selectQuery) throw new RefusedQuery('CREATE TABLE ... AS SELECT is not available to extensions.');
    if (!(node.columns ?? []).some((c: any) => isCompanyColumn(c.column)))
      throw new RefusedQuery(`The table ${node.table?.table?.identifier?.name} needs a company_id column: the host scopes every row to its company.`);
  }
  if (['DropColumnNode', 'RenameColumnNode', 'AlterColumnNode'].includes(node.kind) && isCompanyColumn(node.column))
    throw new RefusedQuery('company_id is kept as the host made it: it cannot be dropped, renamed or altered.');
  if (node.kind === 'CreateIndexNode' || node.kind === 'DropIndexNode') {
    const name = String(node.name?.name ?? node.name?.identifier?.name ?? '').toLowerCase();
    if (![...scope.tables].some((t) => name.startsWith(t))) throw new RefusedQuery(`An index name starts with the name of one of the extension's tables, not "${name}".`);
  }
  return node;
}
