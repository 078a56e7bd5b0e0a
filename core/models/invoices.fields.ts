import { allOptional, any, bool, inputs, int, listOf, mapOf, money, record, string, timestamp } from '../kernel/shape';
import { DELIVERY_METHODS, INVOICE_STATUSES } from '../billing/invoice-rules';

/** The fields of invoices/* (see `@callable({ vars, returns })`), as the reference names them. */

const LINE_INPUT = record(
  inputs({
    id: int({ description: 'On an edit: the line to change (a blank description and amount remove it); none adds a line.' }),
    description: string({ required: true, example: 'Hosting' }),
    amount: money({ required: true, description: 'Unit cost.' }),
    qty: string({ format: 'decimal', description: 'Default 1; more than 0.' }),
    tax: bool({ description: "True: the client's taxes apply to this line." }),
    service_id: int({ description: 'Blank until services exist.' }),
  }),
);

export const INVOICE_ADD = inputs({
  client_id: int({ required: true }),
  date_billed: timestamp({ required: true }),
  date_due: timestamp({ required: true, description: 'On or after date_billed.' }),
  currency: string({ required: true, format: 'currency', description: "One of the company's currencies." }),
  lines: listOf(LINE_INPUT, { required: true, description: 'At least one line; on an edit, lines by id.' }),
  delivery: listOf(string({ enum: DELIVERY_METHODS }), {
    description: "How the invoice is to be delivered: email is sent to the client's billing contacts soon after commit (docs/delivery.md); paper waits in the print queue (getList status to_print).",
  }),
  status: string({ enum: INVOICE_STATUSES, description: 'Default active; a draft gets its number when it stops being one; void voids.' }),
  note_public: string(),
  note_private: string(),
  date_autodebit: timestamp(),
  term: int({ description: 'Blank: not recurring; else 1-65535 periods between the invoices of the recurring invoice this makes.' }),
  period: string({ enum: ['day', 'week', 'month', 'year'], description: 'With term.' }),
  duration: string({ enum: ['indefinitely', 'times'], description: 'With term: indefinitely (default), or duration_time times.' }),
  duration_time: int({ description: 'With duration=times: how many more invoices (1-65535).' }),
  recur_date_billed: timestamp({ description: 'With term: when the next invoice is made; blank: one term after date_billed.' }),
});

export const INVOICE_EDIT = allOptional(INVOICE_ADD);

/** An invoice as listed: its totals, without lines. */
const SUMMARY = {
  id: int(),
  id_value: int({ nullable: true }),
  id_code: string({ description: 'The display number; DRAFT-<id> for a draft.' }),
  number: string({ nullable: true, description: 'The same as id_code (null for a draft).' }),
  client_id: int(),
  date_billed: timestamp(),
  date_due: timestamp(),
  date_closed: timestamp({ nullable: true, description: 'When it was paid in full.' }),
  date_autodebit: timestamp({ nullable: true }),
  status: string({ enum: INVOICE_STATUSES }),
  currency: string({ format: 'currency' }),
  note_public: string({ nullable: true }),
  note_private: string({ nullable: true }),
  subtotal: money(),
  tax: money(),
  total: money(),
  paid: money(),
  due: money(),
  date_added: timestamp(),
};

export const INVOICE_SUMMARY = record(SUMMARY);
export const INVOICE_SUMMARIES = listOf(INVOICE_SUMMARY);

export const LINE_ITEM = record({
  id: int(),
  invoice_id: int(),
  service_id: int({ nullable: true }),
  description: string(),
  qty: string({ format: 'decimal' }),
  amount: money(),
  tax: bool(),
  order: int(),
  total: money(),
});

export const INVOICE = record({
  ...SUMMARY,
  line_items: listOf(LINE_ITEM),
  taxes: listOf(
    record({ tax_id: int({ nullable: true }), level: int({ enum: [1, 2] }), name: string(), rate: string({ format: 'decimal' }), type: string({ enum: ['exclusive', 'inclusive'] }), amount: money() }),
    { description: 'The taxes billed, with the rate they were billed at.' },
  ),
  delivery: listOf(string({ enum: DELIVERY_METHODS })),
});

export const META = record({ invoice_id: int(), key: string(), value: any() });
export const TAX_RULES = listOf(record({ id: int({ nullable: true }), level: int(), name: string(), amount: string({ format: 'decimal' }), type: string({ enum: ['exclusive', 'inclusive'] }) }));
export const LABELS = mapOf(string());
