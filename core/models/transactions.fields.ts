import { allOptional, bool, inputs, int, listOf, money, record, string, timestamp } from '../kernel/shape';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from './transactions/payment-rules';

/** The fields of transactions/* (see `@callable({ vars, returns })`), as the reference names them. */

const ALLOCATIONS = listOf(record(inputs({ invoice_id: int({ required: true }), amount: money({ description: 'At most this much; blank: what is due.' }) })), {
  description: 'Invoices of the client, in the currency, to apply the payment to, in order.',
});

const LINKS = inputs({
  status: string({ enum: TRANSACTION_STATUSES, description: 'Default approved; only approved money pays invoices.' }),
  transaction_id: string({ description: "The gateway's id for the payment; recorded once per gateway." }),
  transaction_type_id: int({ description: "One of the company's transaction types." }),
  gateway_id: int({ description: 'An installed gateway.' }),
  account_id: int(),
  parent_transaction_id: int(),
  reference_id: string(),
  message: string(),
});

export const PAYMENT_ADD = [
  ...inputs({
    client_id: int({ required: true }),
    amount: money({ required: true, description: 'More than 0.' }),
    currency: string({ required: true, format: 'currency' }),
    type: string({ enum: TRANSACTION_TYPES, description: 'Default other.' }),
    gateway: string({ description: 'The gateway that took the payment; at most 128 characters.' }),
    reference: string({ description: "Tally's earlier name of transaction_id." }),
    date_added: timestamp({ description: 'When it was paid; default now.' }),
    amounts: ALLOCATIONS,
    invoices: ALLOCATIONS,
  }),
  ...LINKS,
];

export const PAYMENT_EDIT = [...inputs({ amount: money(), type: string({ enum: TRANSACTION_TYPES }), date_added: timestamp() }), ...LINKS];

export const APPLY = inputs({ amounts: ALLOCATIONS, invoices: ALLOCATIONS, date: timestamp() });
export const VERIFY_APPLY = inputs({ transaction_id: int(), amounts: ALLOCATIONS });

export const REFUND = inputs({
  amount: money({ description: 'Default: all that is left to refund.' }),
  reference: string({ description: "The gateway's refund id." }),
});

const SUMMARY = {
  id: int(),
  client_id: int(),
  amount: money(),
  currency: string({ format: 'currency' }),
  type: string({ enum: TRANSACTION_TYPES }),
  transaction_type_id: int({ nullable: true }),
  account_id: int({ nullable: true }),
  gateway_id: int({ nullable: true }),
  gateway: string({ nullable: true }),
  transaction_id: string({ nullable: true, description: "The gateway's id for the payment." }),
  reference: string({ nullable: true, description: 'The same as transaction_id.' }),
  parent_transaction_id: int({ nullable: true }),
  reference_id: string({ nullable: true }),
  message: string({ nullable: true }),
  status: string({ enum: [...TRANSACTION_STATUSES, 'refunded'] }),
  refunded: money(),
  date_added: timestamp(),
};

export const TRANSACTION_SUMMARY = record(SUMMARY);
export const TRANSACTION_SUMMARIES = listOf(TRANSACTION_SUMMARY);

export const TRANSACTION = record({
  ...SUMMARY,
  credit: money({ description: 'What is left to apply.' }),
  applied: listOf(record({ invoice_id: int(), amount: money(), date_added: timestamp() })),
  refunds: listOf(record({ id: int(), amount: money(), reference: string({ nullable: true }), date_added: timestamp() })),
});

export const APPLIED = listOf(
  record({ transaction_id: int(), invoice_id: int(), amount: money(), date: timestamp(), currency: string({ format: 'currency' }), invoice_id_code: string({ nullable: true }) }),
);
export const CREDITS = listOf(record({ transaction_id: int(), currency: string({ format: 'currency' }), credit: money() }));
export const TYPE = record({ id: int(), company_id: int(), type: string({ enum: ['debit', 'credit'] }), name: string(), is_lang: bool() });
export const TYPE_ADD = inputs({ name: string({ required: true }), type: string({ required: true, enum: ['debit', 'credit'] }), is_lang: bool() });
export const TYPE_EDIT = allOptional(TYPE_ADD);
