import { CompiledQuery } from 'kysely';
import { Tx } from '../db/schema';
import { keepPrepared } from '../db/prepared-statements';
import { executeRead } from '../db/read-statements';
import { compileTemplate, perDatabase, QueryTemplate, withValues } from '../db/query-template';
import { beyondInt32 } from '../db/wide-id-comparisons';

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
  const held = perDatabase((): { template?: QueryTemplate } => ({}));
  const templateFor = (db: Tx, arity: number): QueryTemplate => {
    const slot = held(db);
    if (!slot.template) {
      const template = compileTemplate(arity, (slots) => build(db, ...(slots as unknown as V)).compile());
      if (template.compiled.query.kind !== 'SelectQueryNode') throw new Error('reusedSelect takes selects only');
      keepPrepared(template.compiled.sql);
      slot.template = template;
    }
    return slot.template;
  };
  // Not an async function (its promise and turn would be one more per read on the hot path); what
  // it throws is a rejection all the same.
  return (db: Tx, ...values: V): Promise<R[]> => {
    try {
      if (!reusable(values)) return build(db, ...values).execute();
      return executeRead<R>(db, withValues(templateFor(db, values.length), values) as CompiledQuery<R>).then(rowsOf);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

function reusable(values: readonly unknown[]): boolean {
  for (const v of values) if ((typeof v !== 'number' && typeof v !== 'string') || beyondInt32(v)) return false;
  return true;
}

const rowsOf = <R>(result: { rows: R[] }): R[] => result.rows;
