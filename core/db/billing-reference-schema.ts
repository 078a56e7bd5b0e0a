import { Generated } from 'kysely';

/** Tables of migration 009 (payment reminders), merged into `Database` as recurring-schema.ts does. */
declare module './schema' {
  interface Database {
    invoice_notices: InvoiceNoticesTable;
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
