import { allOptional, bool, inputs, int, listOf, money, record, string, timestamp } from '../kernel/shape';
import { DELIVERY_METHODS } from '../billing/invoice-rules';
import { RECURRING_PERIODS } from '../billing/recurring-invoice-rules';

/** The fields of invoices/*Recurring* (see `@callable({ vars, returns })`), as the reference names them. */

const RECURRING_LINE_INPUT = record(
  inputs({
    id: int({ description: 'On an edit: the line to change (a blank description and amount remove it); none adds a line.' }),
    description: string({ required: true, example: 'Support plan' }),
    amount: money({ required: true, description: 'Unit cost.' }),
    qty: string({ format: 'decimal', description: 'Default 1; more than 0.' }),
    tax: bool({ description: "True: the client's taxes apply to this line." }),
  }),
);

export const RECURRING_ADD = inputs({
  client_id: int({ required: true }),
  term: int({ required: true, description: '1 to 65535 periods between invoices.' }),
  period: string({ required: true, enum: RECURRING_PERIODS }),
  duration: int({ description: 'How many invoices it makes in all (1 to 65535); blank: indefinitely.' }),
  currency: string({ required: true, format: 'currency', description: "One of the company's currencies." }),
  date_renews: timestamp({ required: true, description: 'When the next invoice is made (and due).' }),
  date_last_renewed: timestamp({ description: 'When the last one was made; the billing run keeps it.' }),
  note_public: string(),
  note_private: string(),
  lines: listOf(RECURRING_LINE_INPUT, { required: true, description: 'At least one line; on an edit, lines by id.' }),
  delivery: listOf(string({ enum: DELIVERY_METHODS }), { description: 'How the invoices it makes are delivered (recorded on each).' }),
});

export const RECURRING_EDIT = allOptional(RECURRING_ADD);

export const RECURRING_DELIVERY_ADD = inputs({ method: string({ required: true, enum: DELIVERY_METHODS }) });

export const RECURRING_LINE_ITEM = record({
  id: int(),
  invoice_recur_id: int(),
  description: string(),
  qty: string({ format: 'decimal' }),
  amount: money(),
  subtotal: money({ description: 'qty × amount.' }),
  taxable: bool(),
});

export const RECURRING_DELIVERY = record({ id: int(), invoice_recur_id: int(), method: string({ enum: DELIVERY_METHODS }) });

const SUMMARY = {
  id: int(),
  client_id: int(),
  term: int(),
  period: string({ enum: RECURRING_PERIODS }),
  duration: int({ nullable: true, description: 'Invoices it makes in all; null: indefinitely.' }),
  currency: string({ format: 'currency' }),
  date_renews: timestamp({ description: 'When the next invoice is made.' }),
  date_last_renewed: timestamp({ nullable: true }),
  note_public: string({ nullable: true }),
  note_private: string({ nullable: true }),
  date_added: timestamp(),
  count: int({ description: 'Invoices made so far.' }),
  subtotal: money(),
  taxable: bool({ description: 'Whether any line is taxable.' }),
  client_id_code: string(),
  client_first_name: string({ nullable: true }),
  client_last_name: string({ nullable: true }),
  client_company: string({ nullable: true }),
};

export const RECURRING_SUMMARY = record(SUMMARY);
export const RECURRING_SUMMARIES = listOf(RECURRING_SUMMARY);

export const RECURRING_INVOICE = record({
  ...SUMMARY,
  line_items: listOf(RECURRING_LINE_ITEM),
  delivery: listOf(RECURRING_DELIVERY),
  total: money({ description: "The subtotal with the client's exclusive taxes, as the next invoice would be billed today." }),
  taxes: listOf(
    record({ tax_id: int({ nullable: true }), level: int({ enum: [1, 2] }), name: string(), rate: string({ format: 'decimal' }), type: string({ enum: ['exclusive', 'inclusive'] }), amount: money() }),
    { description: "The client's taxes on it today." },
  ),
});

export const RECURRING_INFO = record({
  amount: money({ description: 'What recurs each term.' }),
  term: int(),
  period: string({ enum: ['day', 'week', 'month', 'year', 'onetime'] }),
});
