import { Generated } from 'kysely';

/** The tables of migration 022 (recurring invoices, restricted packages), merged into `Database` as recurring-schema.ts does. */
declare module './schema' {
  interface Database {
    invoices_recur: InvoicesRecurTable;
    invoice_recur_lines: InvoiceRecurLinesTable;
    invoice_recur_delivery: { id: Generated<number>; invoice_recur_id: number; method: string };
    invoices_recur_created: { invoice_recur_id: number; date_renews: string; invoice_id: number };
    client_packages: { client_id: number; package_id: number };
  }
}

export interface InvoicesRecurTable {
  id: Generated<number>;
  company_id: number;
  client_id: number;
  term: number;
  period: string;
  /** null: indefinitely; else the number of invoices it makes in all. */
  duration: number | null;
  currency: string;
  date_renews: string;
  date_last_renewed: string | null;
  note_public: string | null;
  note_private: string | null;
  date_added: string;
}

export interface InvoiceRecurLinesTable {
  id: Generated<number>;
  invoice_recur_id: number;
  line_order: number;
  description: string;
  qty: string;
  amount: string;
  taxable: number;
}
