import { allOptional, bool, inputs, int, listOf, money, record, string, timestamp } from '../kernel/shape';
import { DELIVERY_METHODS, INVOICE_STATUSES } from './invoices/invoice-rules';

/** The fields of invoices/* (see `@callable({ vars, returns })` in invoices.ts). */

const LINE_INPUT = record(
  inputs({
    description: string({ required: true, example: 'Hosting' }),
    amount: money({ required: true, description: 'Unit cost.' }),
    qty: string({ format: 'decimal', description: 'Default 1; more than 0.' }),
    tax: bool({ description: "True: the client's taxes apply to this line." }),
  }),
);

export const INVOICE_ADD = inputs({
  client_id: int({ required: true }),
  date_billed: timestamp({ required: true }),
  date_due: timestamp({ required: true, description: 'On or after date_billed.' }),
  currency: string({ required: true, format: 'currency', description: "One of the company's currencies (currencies/getList)." }),
  lines: listOf(LINE_INPUT, { required: true, description: 'At least one line; on an edit, replaces every line.' }),
  delivery: listOf(string({ enum: DELIVERY_METHODS }), { description: 'How the invoice is to be delivered (recorded only).' }),
  status: string({ enum: INVOICE_STATUSES, description: 'Default active; a draft gets its number when it stops being one.' }),
});

export const INVOICE_EDIT = allOptional(INVOICE_ADD);

/** An invoice as listed: its totals, without lines. */
const SUMMARY = {
  id: int(),
  number: string({ nullable: true, description: 'Given when the invoice stops being a draft.' }),
  client_id: int(),
  status: string({ enum: INVOICE_STATUSES }),
  currency: string({ format: 'currency' }),
  subtotal: money(),
  tax: money(),
  total: money(),
  paid: money(),
  due: money(),
  date_billed: timestamp(),
  date_due: timestamp(),
  date_closed: timestamp({ nullable: true, description: 'When it was paid in full.' }),
  date_added: timestamp(),
};

export const INVOICE_SUMMARY = record(SUMMARY);

export const INVOICE = record({
  ...SUMMARY,
  delivery: listOf(string({ enum: DELIVERY_METHODS })),
  lines: listOf(record({ id: int(), description: string(), qty: string({ format: 'decimal' }), amount: money(), tax: bool(), total: money() })),
  taxes: listOf(
    record({ tax_id: int(), level: int({ enum: [1, 2] }), name: string(), rate: string({ format: 'decimal' }), type: string({ enum: ['exclusive', 'inclusive'] }), amount: money() }),
    { description: 'The taxes billed, with the rate they were billed at.' },
  ),
});
