import { CompiledQuery, KyselyPlugin, QueryResult } from 'kysely';
import { planWrites } from './column-limits';
import { keepPrepared } from './prepared-statements';
import { Tx } from './schema';
import { beyondInt32 } from './wide-id-comparisons';

/** Where a value goes: built into the query in its place, found again among the compiled parameters. */
class Slot {
  constructor(readonly index: number) {}
}

interface Template {
  readonly compiled: CompiledQuery;
  /** For each parameter: the index of the value it takes, or -1 for a constant of the query. */
  readonly sources: readonly number[];
}

interface Templates {
  /** The plugins they were compiled with (a transaction copies its database's list, so compared by item). */
  readonly plugins: readonly KyselyPlugin[];
  /** By the number of values. */
  readonly byArity: Map<number, Template>;
}

/** What a write is built of: one value per written column or compared id, never undefined (Kysely would drop the column). */
export type WriteValue = number | string | null;

export interface ReusedWriteOptions {
  /**
   * The number of values varies (the rows of a multi-row insert): each count is a template of its
   * own, the last VARYING_SHAPES of them kept, and none is kept prepared on PostgreSQL.
   */
  readonly varying?: boolean;
}

const VARYING_SHAPES = 64;

/**
 * An INSERT or UPDATE on the hot path, built and compiled once per database (and per number of
 * values) and run with each call's values: Kysely rebuilds and recompiles a query on every
 * execution, which cost invoices/add more than running its statements.
 *
 * `build` gets stand-ins for `values` once and must place each value in the query as a value
 * (values(), set(), where(), or inside an sql`` template), never compute with it. The database's
 * plugins see the query then; a value they would rewrite (a whole number beyond 32 bits:
 * core/db/wide-id-comparisons.ts) is run through a freshly built query instead, so every call gets
 * the SQL it would have got without reuse. The schema's limits (core/db/column-limits.ts) are
 * checked on each call's own values: the template tells ColumnLimits which parameter is which column.
 * Writes only: reads have core/kernel/reused-select.ts.
 */
export function reusedWrite<R>(build: (db: Tx, values: readonly WriteValue[]) => { compile(): CompiledQuery<R> }, options: ReusedWriteOptions = {}) {
  // Per database (its dialect's adapter), then per list of plugins: a few entries at most.
  const known = new WeakMap<object, Templates[]>();
  const templateFor = (db: Tx, arity: number): Template => {
    const { adapter, plugins } = db.getExecutor();
    let lists = known.get(adapter);
    if (!lists) known.set(adapter, (lists = []));
    let templates = lists.find((t) => t.plugins.length === plugins.length && t.plugins.every((p, i) => p === plugins[i]));
    if (!templates) lists.push((templates = { plugins: [...plugins], byArity: new Map() }));
    let template = templates.byArity.get(arity);
    if (!template) {
      const slots = Array.from({ length: arity }, (_, i) => new Slot(i));
      const compiled = build(db, slots as unknown as WriteValue[]).compile();
      if (compiled.query.kind !== 'InsertQueryNode' && compiled.query.kind !== 'UpdateQueryNode') throw new Error('reusedWrite takes inserts and updates only');
      const sources = compiled.parameters.map((p) => (p instanceof Slot ? p.index : -1));
      const placed = new Set(sources.filter((s) => s !== -1)).size;
      if (placed !== arity) throw new Error(`reusedWrite: the query placed ${placed} of its ${arity} values as parameters`);
      planWrites(compiled);
      if (!options.varying) keepPrepared(compiled.sql);
      if (options.varying && templates.byArity.size >= VARYING_SHAPES) templates.byArity.delete(templates.byArity.keys().next().value as number);
      template = { compiled, sources };
      templates.byArity.set(arity, template);
    }
    return template;
  };
  return async (db: Tx, values: readonly WriteValue[]): Promise<QueryResult<R>> => {
    if (values.some((v) => (v !== null && typeof v !== 'number' && typeof v !== 'string') || beyondInt32(v))) {
      return db.executeQuery<R>(build(db, values).compile());
    }
    const { compiled, sources } = templateFor(db, values.length);
    const parameters = sources.map((source, i) => (source === -1 ? compiled.parameters[i] : values[source]));
    return db.executeQuery<R>({ query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters });
  };
}

/** Flat values in `columns`' order, row after row: what a multi-row reusedWrite takes. */
export function valuesOf<C extends string>(columns: readonly C[], rows: ReadonlyArray<Record<C, WriteValue>>): WriteValue[] {
  const values: WriteValue[] = [];
  for (const row of rows) for (const column of columns) values.push(row[column]);
  return values;
}

/** The rows of flat `values` (valuesOf's inverse), for a reusedWrite's build to insert. */
export function rowsOf<C extends string>(columns: readonly C[], values: readonly WriteValue[]): Array<Record<C, WriteValue>> {
  const rows: Array<Record<C, WriteValue>> = [];
  for (let at = 0; at < values.length; at += columns.length) {
    const row = {} as Record<C, WriteValue>;
    columns.forEach((column, i) => (row[column] = values[at + i]));
    rows.push(row);
  }
  return rows;
}
