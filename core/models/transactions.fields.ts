import { inputs, int, listOf, money, record, string, timestamp } from '../kernel/shape';
import { TRANSACTION_TYPES } from './transactions/payment-rules';

/** The fields of transactions/* (see `@callable({ vars, returns })` in transactions.ts). */

const ALLOCATIONS = listOf(
  record(inputs({ invoice_id: int({ required: true }), amount: money({ description: 'At most this much; blank: what is due.' }) })),
  { description: 'Invoices of the client, in the currency, to apply the payment to, in order.' },
);

export const PAYMENT_ADD = inputs({
  client_id: int({ required: true }),
  amount: money({ required: true, description: 'More than 0.' }),
  currency: string({ required: true, format: 'currency' }),
  type: string({ enum: TRANSACTION_TYPES, description: 'Default other.' }),
  gateway: string({ description: 'The gateway that took the payment; at most 128 characters.' }),
  reference: string({ description: "The payment's id at the gateway; recorded once per gateway." }),
  date_added: timestamp({ description: 'When it was paid; default now.' }),
  invoices: ALLOCATIONS,
});

export const APPLY = inputs({ invoices: { ...ALLOCATIONS, required: true } });

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
  gateway: string({ nullable: true }),
  reference: string({ nullable: true }),
  status: string({ enum: ['approved', 'refunded'] }),
  refunded: money(),
  date_added: timestamp(),
};

export const TRANSACTION_SUMMARY = record(SUMMARY);

export const TRANSACTION = record({
  ...SUMMARY,
  credit: money({ description: 'What is left to apply.' }),
  applied: listOf(record({ invoice_id: int(), amount: money(), date_added: timestamp() })),
  refunds: listOf(record({ id: int(), amount: money(), reference: string({ nullable: true }), date_added: timestamp() })),
});
