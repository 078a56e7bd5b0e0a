import { Kysely, sql } from 'kysely';
import { isPostgres } from '../is-postgres';

/**
 * Invoice deliveries get an id of their own, as the reference keeps them: invoices/delivered and
 * deleteDelivery name a delivery by it, and an invoice may be delivered by the same method more
 * than once (addDelivery of `email` again mails it again), so (invoice_id, method) is no longer the
 * key. Existing rows keep their invoice, method and date sent.
 *
 * PostgreSQL adds a serial column (filling the rows it has) and moves the primary key to it.
 * SQLite cannot change a table's key in place: the table is rebuilt as SQLite documents
 * (https://www.sqlite.org/lang_altertable.html#otheralter), in one transaction. Nothing refers to
 * invoice_delivery, so foreign keys stay on and are checked as the rows are copied.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table invoice_delivery drop constraint invoice_delivery_pk`.execute(db);
    await sql`alter table invoice_delivery add column id serial primary key`.execute(db);
  } else {
    await sql`begin immediate`.execute(db);
    try {
      await sql`create table invoice_delivery__ids (
        "id" integer primary key autoincrement,
        "invoice_id" integer not null references "invoices" ("id") on delete cascade,
        "method" varchar(32) not null,
        "date_sent" varchar(19)
      )`.execute(db);
      await sql`insert into invoice_delivery__ids (invoice_id, method, date_sent) select invoice_id, method, date_sent from invoice_delivery order by invoice_id, method`.execute(db);
      await sql`drop table invoice_delivery`.execute(db);
      await sql`alter table invoice_delivery__ids rename to invoice_delivery`.execute(db);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  }
  // The lists by invoice (getDelivery, the to_print and to_deliver filters) read by invoice.
  await db.schema.createIndex('invoice_delivery_invoice_idx').on('invoice_delivery').columns(['invoice_id', 'method']).execute();
}

/** A delivery repeated by method cannot go back under the old key: the ids stay. */
export async function down(): Promise<void> {}
