import { shape } from '../../../../host/extensions/kit';

const { inputs, record, listOf, int, string, money, timestamp } = shape;

/** The shapes of test_card's methods, for the API reference (as core's `<model>.fields.ts`). */
const CLIENT = { client_id: int({ required: true, example: 1 }) };
const CARD = {
  card_number: string({ required: true, description: 'A test card number.', example: '4242424242424242' }),
  exp_month: string({ required: true, example: '12' }),
  exp_year: string({ required: true, example: '2030' }),
  cvv: string({ required: true, example: '123' }),
};
const PAYS = {
  amount: money({ required: true, example: '10.00' }),
  currency: string({ required: true, format: 'currency', example: 'USD' }),
  invoices: listOf(record({ invoice_id: int(), amount: money() }), { description: 'Invoices the payment pays.' }),
};
const OUTCOME = {
  status: string({ enum: ['approved', 'declined'] }),
  reason: string({ nullable: true, description: 'Why it was declined.' }),
  message: string(),
  transaction_id: int({ nullable: true, description: "The approved payment's transaction." }),
};

export const CHARGE_CARD_VARS = inputs({ ...CLIENT, ...PAYS, ...CARD });
export const CARD_CHARGE = record({ charge_id: int(), ...OUTCOME });
export const CHARGES = listOf(
  record({
    id: int(),
    company_id: int(),
    client_id: int(),
    amount: money(),
    currency: string(),
    last4: string(),
    status: string({ enum: ['approved', 'declined'] }),
    reason: string({ nullable: true }),
    transaction_id: int({ nullable: true }),
    date_added: timestamp(),
  }),
);

export const STORE_CARD_VARS = inputs({ ...CLIENT, ...CARD });
export const STORED_CARD = record({
  reference_id: string({ description: 'The token.' }),
  last4: string(),
  type: string({ enum: ['visa', 'mc', 'amex', 'other'] }),
  expiration: string({ description: 'yyyymm' }),
});

export const STORE_ACH_VARS = inputs({
  ...CLIENT,
  account_number: string({ required: true, example: '000123456789' }),
  routing_number: string({ required: true, example: '110000000' }),
  account_type: string({ enum: ['checking', 'savings'], description: 'Default checking.' }),
});
export const STORED_ACH = record({
  reference_id: string({ description: 'The token.' }),
  last4: string(),
  type: string({ enum: ['checking', 'savings'] }),
  verification: string({ enum: ['pending'] }),
});

export const VERIFY_VARS = inputs({
  ...CLIENT,
  reference_id: string({ required: true }),
  amounts: listOf(string(), { required: true, description: 'The two deposits, in dollars (0.32) or cents (32).' }),
});
export const VERIFIED = record({ status: string({ enum: ['verified', 'mismatch', 'failed'] }), attempts_left: int() });

export const CHARGE_TOKEN_VARS = inputs({ ...CLIENT, reference_id: string({ required: true }), ...PAYS });
export const TOKEN_CHARGE = record(OUTCOME);
