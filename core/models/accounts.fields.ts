import { bool, inputs, int, mapOf, record, string, timestamp } from '../kernel/shape';

/** The fields of accounts/* (see `@callable({ vars, returns })` in accounts.ts and accounts/ach-accounts.ts). */

export const ACCOUNT = record({
  id: int(),
  client_id: int(),
  contact_id: int(),
  account_type: string({ enum: ['cc', 'ach'] }),
  type: string({ nullable: true, description: 'Card brand (visa, mc, amex, other) or bank account type (checking, savings).' }),
  type_name: string(),
  first_name: string(),
  last_name: string(),
  last4: string({ description: 'The last four digits: the number itself is never stored.' }),
  expiration: string({ nullable: true, description: 'yyyymm (cards only).' }),
  gateway: string({ description: 'The merchant gateway holding the card or bank account.' }),
  reference_id: string({ description: "The gateway's token." }),
  currency: string({ format: 'currency', nullable: true }),
  status: string({ enum: ['active', 'inactive', 'unverified'], description: 'unverified: a bank account whose micro-deposits are not confirmed yet; it is not charged.' }),
  autodebit: bool({ description: "Whether it is the client's autodebit account." }),
  date_added: timestamp(),
});

export const LABELS = mapOf(string());

const OWNER = {
  contact_id: int({ description: 'The contact it belongs to (or give client_id).' }),
  client_id: int({ description: 'Its primary contact, when contact_id is not given.' }),
  first_name: string({ description: "Default: the contact's." }),
  last_name: string({ description: "Default: the contact's." }),
  gateway: string({ description: 'An installed merchant gateway that stores them; default test_card.' }),
  currency: string({ format: 'currency' }),
  autodebit: bool({ description: "true: make it the client's autodebit account." }),
};

export const CC_ADD = inputs({
  ...OWNER,
  number: string({ required: true, example: '4242424242424242', description: 'Handed to the gateway, never stored. Not with vars[token].' }),
  expiration: string({ required: true, example: '203012', description: 'yyyymm. Not needed with vars[token] (the gateway answers it).' }),
  security_code: string({ example: '123', description: 'Handed to the gateway, never stored.' }),
  token: string({ description: "Instead of the number: the card as the gateway's client-side tokenisation answered it (stripe_cards: the PaymentMethod id, pm_...)." }),
});

export const ACH_ADD = inputs({
  ...OWNER,
  account: string({ required: true, example: '000123456789', description: 'The bank account number, handed to the gateway, never stored.' }),
  routing: string({ required: true, example: '110000000', description: 'The 9-digit routing number, handed to the gateway, never stored.' }),
  type: string({ enum: ['checking', 'savings'], description: 'Default checking.' }),
});

export const NAME_EDIT = inputs({ first_name: string(), last_name: string() });

export const DEPOSITS = inputs({
  first_deposit: string({ required: true, example: '0.32', description: 'One micro-deposit, in dollars (0.32) or cents (32).' }),
  second_deposit: string({ required: true, example: '0.45', description: 'The other.' }),
});

export const DEBIT_ACCOUNT = inputs({ account_id: int({ required: true, description: 'An active account of the client.' }) });
