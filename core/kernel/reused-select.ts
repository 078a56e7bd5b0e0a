import { CompiledQuery, KyselyPlugin } from 'kysely';
import { Tx } from '../db/schema';
import { keepPrepared } from '../db/prepared-statements';
import { beyondInt32 } from '../db/wide-id-comparisons';

/** Where a value goes: built into the query in its place, found again among the compiled parameters. */
class Slot {
  constructor(readonly index: number) {}
}

interface Template {
  /** The plugins it was compiled with (a transaction copies its database's list, so compared by item). */
  readonly plugins: readonly KyselyPlugin[];
  readonly compiled: CompiledQuery;
  /** For each parameter: the index of the value it takes, or -1 for a constant of the query. */
  readonly sources: readonly number[];
}

/** What a select is built of: whole numbers and text, never a list (its placeholders would vary with its length). */
type Value = number | string;

/**
 * A SELECT run on the hot path, built and compiled once per database and run with each call's
 * values: Kysely rebuilds and recompiles a query on every execution (immutable builders, a
 * visitor over the operation tree), which cost users/get more than reading the row.
 *
 * The query is built once with stand-ins for `values` and compiled as usual (the database's
 * plugins see it then); each call only swaps its values into the parameters. A value the plugins
 * would rewrite (a whole number beyond 32 bits: core/db/wide-id-comparisons.ts) is run through a
 * freshly built query instead, so every call gets the SQL it would have got without reuse.
 * Selects only: ColumnLimits checks the values of writes in the query's tree. On PostgreSQL the
 * statement is also kept prepared on each connection (core/db/prepared-statements.ts).
 */
export function reusedSelect<V extends Value[], R>(build: (db: Tx, ...values: V) => { compile(): CompiledQuery<R>; execute(): Promise<R[]> }) {
  // Per database (its dialect's adapter), then per list of plugins: a few entries at most.
  const templates = new WeakMap<object, Template[]>();
  const templateFor = (db: Tx, arity: number): Template => {
    const { adapter, plugins } = db.getExecutor();
    let known = templates.get(adapter);
    if (!known) templates.set(adapter, (known = []));
    let template = known.find((t) => t.plugins.length === plugins.length && t.plugins.every((p, i) => p === plugins[i]));
    if (!template) {
      const slots = Array.from({ length: arity }, (_, i) => new Slot(i));
      const compiled = build(db, ...(slots as unknown as V)).compile();
      if (compiled.query.kind !== 'SelectQueryNode') throw new Error('reusedSelect takes selects only');
      const sources = compiled.parameters.map((p) => (p instanceof Slot ? p.index : -1));
      keepPrepared(compiled.sql);
      template = { plugins: [...plugins], compiled, sources };
      known.push(template);
    }
    return template;
  };
  return async (db: Tx, ...values: V): Promise<R[]> => {
    if (values.some((v) => (typeof v !== 'number' && typeof v !== 'string') || beyondInt32(v))) return build(db, ...values).execute();
    const { compiled, sources } = templateFor(db, values.length);
    const parameters = sources.map((source, i) => (source === -1 ? compiled.parameters[i] : values[source]));
    const result = await db.executeQuery<R>({ query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters });
    return result.rows;
  };
}
