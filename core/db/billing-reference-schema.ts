import { Generated } from 'kysely';

/** Tables and columns of migration 009 (payment reminders, the run log's counts), merged as recurring-schema.ts does. */
declare module './schema' {
  interface Database {
    invoice_notices: InvoiceNoticesTable;
  }
}

declare module './recurring-schema' {
  interface AutomationRunsTable {
    /** How many runs of the task have started. */
    runs: Generated<number>;
    /** `host/pid` of the process that started the last. */
    runner: string | null;
  }
}

export interface InvoiceNoticesTable {
  id: Generated<number>;
  company_id: number;
  client_id: number;
  invoice_id: number;
  notice: string;
  date_due: string;
  date_added: string;
  status: string;
  date_sent: string | null;
}
