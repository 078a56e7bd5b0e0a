import { CompiledQuery, QueryResult, Transaction, UnknownRow } from 'kysely';
import { Database } from '../../../core/db/schema';
import { ExtensionSession } from './extension-session';

/** Queries made inside a transaction someone else owns and ends (a caller that opened one itself). */
export class DirectSession implements ExtensionSession {
  constructor(private readonly trx: Transaction<Database>) {}

  query(query: CompiledQuery<UnknownRow>): Promise<QueryResult<UnknownRow>> {
    return this.trx.executeQuery(query);
  }

  async commit(): Promise<void> {}

  async abort(): Promise<void> {}
}
