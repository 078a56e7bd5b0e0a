import { Kysely } from 'kysely';

/**
 * The files a company gives its PDF invoices: its logo (PNG or JPEG) and a font for scripts the
 * shipped DejaVu Sans lacks, one of each per company, as base64 text (text reads the same on
 * SQLite and PostgreSQL). A table of their own rather than settings: settings are read whole into
 * every process's cache, and these are hundreds of kilobytes read only when a PDF is drawn.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invoice_pdf_files')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(19)', (c) => c.notNull())
    .addPrimaryKeyConstraint('invoice_pdf_files_pk', ['company_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invoice_pdf_files').execute();
}
