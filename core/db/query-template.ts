import { CompiledQuery, KyselyPlugin } from 'kysely';
import { Tx } from './schema';

/** Where a value goes: built into the query in its place, found again among the compiled parameters. */
export class Slot {
  constructor(readonly index: number) {}
}

/** A query compiled once, with stand-ins where each call's values go. */
export interface QueryTemplate {
  readonly compiled: CompiledQuery;
  /** For each parameter: the index of the value it takes, or -1 for a constant of the query. */
  readonly sources: readonly number[];
}

/** Compiles the query `build` makes with a Slot standing for each of `arity` values. */
export function compileTemplate(arity: number, build: (slots: Slot[]) => CompiledQuery): QueryTemplate {
  const compiled = build(Array.from({ length: arity }, (_, i) => new Slot(i)));
  return { compiled, sources: compiled.parameters.map((p) => (p instanceof Slot ? p.index : -1)) };
}

/** The template's query with `values` in their places. */
export function withValues(template: QueryTemplate, values: readonly unknown[]): CompiledQuery {
  const { compiled, sources } = template;
  const parameters = sources.map((source, i) => (source === -1 ? compiled.parameters[i] : values[source]));
  return { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters };
}

/**
 * One `T` per database (its dialect's adapter) and list of plugins (a transaction copies its
 * database's list, so compared by item), made on first use: a few entries at most. Templates are
 * kept this way, since the SQL a query compiles to depends on both.
 */
export function perDatabase<T>(make: () => T): (db: Tx) => T {
  const known = new WeakMap<object, Array<{ plugins: readonly KyselyPlugin[]; value: T }>>();
  return (db) => {
    const { adapter, plugins } = db.getExecutor();
    let entries = known.get(adapter);
    if (!entries) known.set(adapter, (entries = []));
    let entry = entries.find((e) => e.plugins.length === plugins.length && e.plugins.every((p, i) => p === plugins[i]));
    if (!entry) entries.push((entry = { plugins: [...plugins], value: make() }));
    return entry.value;
  };
}
