import { CompiledQuery, QueryResult } from 'kysely';
import { planWrites } from './column-limits';
import { keepPrepared } from './prepared-statements';
import { compileTemplate, perDatabase, QueryTemplate, withValues } from './query-template';
import { Tx } from './schema';
import { beyondInt32 } from './wide-id-comparisons';

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
  // Per database and list of plugins, then by the number of values.
  const byArity = perDatabase(() => new Map<number, QueryTemplate>());
  const templateFor = (db: Tx, arity: number): QueryTemplate => {
    const templates = byArity(db);
    let template = templates.get(arity);
    if (!template) {
      template = compileTemplate(arity, (slots) => build(db, slots as unknown as WriteValue[]).compile());
      const { compiled, sources } = template;
      if (compiled.query.kind !== 'InsertQueryNode' && compiled.query.kind !== 'UpdateQueryNode') throw new Error('reusedWrite takes inserts and updates only');
      const placed = new Set(sources.filter((s) => s !== -1)).size;
      if (placed !== arity) throw new Error(`reusedWrite: the query placed ${placed} of its ${arity} values as parameters`);
      planWrites(compiled);
      if (!options.varying) keepPrepared(compiled.sql);
      if (options.varying && templates.size >= VARYING_SHAPES) templates.delete(templates.keys().next().value as number);
      templates.set(arity, template);
    }
    return template;
  };
  return async (db: Tx, values: readonly WriteValue[]): Promise<QueryResult<R>> => {
    if (values.some((v) => (v !== null && typeof v !== 'number' && typeof v !== 'string') || beyondInt32(v))) {
      return db.executeQuery<R>(build(db, values).compile());
    }
    return db.executeQuery<R>(withValues(templateFor(db, values.length), values) as CompiledQuery<R>);
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
