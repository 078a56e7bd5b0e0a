import { Generated } from 'kysely';

/** The table of migration 031 (queued service changes), merged into `Database` as recurring-schema.ts does. */
declare module './schema' {
  interface Database {
    service_changes: ServiceChangesTable;
  }
}

export interface ServiceChangesTable {
  id: Generated<number>;
  company_id: number;
  service_id: number;
  invoice_id: number;
  /** pending (its invoice unpaid), completed (applied), canceled (its invoice voided). */
  status: string;
  /** The QueuedChange to apply, as JSON. */
  data: string;
  date_added: string;
  date_status: string;
}
