import { expect } from 'chai';
import type {
  Client,
  ClientGroup,
  ClientNote,
  CustomContactType,
  CustomField,
  CustomTransactionType,
  Contact,
  ContactNumber,
  Currency,
  Found,
  Invoice,
  LineItem,
  Tax,
  Transaction,
} from '../../sdk/src';
import { useSdkServer } from './support/sdk-server';

/**
 * The SDK's record types against what the server answers. Each key list is checked against its
 * interface by the compiler (`Record<keyof T, true>`: a field missing from either side fails the
 * build), and against a real record here, so the types cannot drift from the API.
 */
const keys = <T>(list: Record<keyof T, true>) => Object.keys(list).sort();

const CONTACT_FIELDS = { first_name: true, last_name: true, title: true, email: true, company: true, address1: true, address2: true, city: true, zip: true, state: true, country: true } as const;
const CLIENT = keys<Client>({
  ...CONTACT_FIELDS,
  id: true,
  id_format: true,
  id_value: true,
  id_code: true,
  primary_account_id: true,
  primary_account_type: true,
  user_id: true,
  client_group_id: true,
  status: true,
  company_id: true,
  date_added: true,
  contact_id: true,
  settings: true,
});
const CONTACT = keys<Contact>({
  ...CONTACT_FIELDS,
  id: true,
  client_id: true,
  user_id: true,
  contact_type: true,
  contact_type_id: true,
  date_added: true,
  contact_type_name: true,
  contact_type_is_lang: true,
});
const NUMBER = keys<ContactNumber>({ id: true, contact_id: true, number: true, type: true, location: true });
const GROUP = keys<ClientGroup>({ id: true, company_id: true, name: true, description: true, color: true });
const NOTE = keys<ClientNote>({ id: true, client_id: true, staff_id: true, title: true, description: true, stickied: true, date_added: true, date_updated: true });
const FIELD = keys<CustomField>({
  id: true,
  company_id: true,
  client_group_id: true,
  name: true,
  link: true,
  is_lang: true,
  type: true,
  values: true,
  default: true,
  regex: true,
  show_client: true,
  read_only: true,
  encrypted: true,
});
const CONTACT_TYPE = keys<CustomContactType>({ id: true, company_id: true, name: true, is_lang: true });
const TRANSACTION_TYPE = keys<CustomTransactionType>({ id: true, company_id: true, name: true, is_lang: true, type: true });
const INVOICE = keys<Invoice>({
  id: true, id_value: true, id_code: true, number: true, client_id: true, date_billed: true, date_due: true, date_closed: true, date_autodebit: true, status: true, currency: true,
  note_public: true, note_private: true, subtotal: true, tax: true, total: true, paid: true, due: true, date_added: true, line_items: true, taxes: true, delivery: true,
}); // prettier-ignore
const LINE = keys<LineItem>({ id: true, invoice_id: true, service_id: true, description: true, qty: true, amount: true, tax: true, order: true, total: true });
const TRANSACTION = keys<Transaction>({
  id: true, client_id: true, amount: true, currency: true, type: true, transaction_type_id: true, account_id: true, gateway_id: true, gateway: true, transaction_id: true, reference: true,
  parent_transaction_id: true, reference_id: true, message: true, status: true, refunded: true, date_added: true, credit: true, applied: true, refunds: true,
}); // prettier-ignore
const CURRENCY = keys<Currency>({ code: true, company_id: true, format: true, precision: true, prefix: true, suffix: true, exchange_rate: true, exchange_updated: true });
const TAX = keys<Tax>({ id: true, company_id: true, level: true, name: true, rate: true, amount: true, type: true, country: true, state: true, status: true });

describe('sdk: typed records match what the server answers', () => {
  const sdk = useSdkServer();
  const ok = async <T>(verb: 'get' | 'post' | 'put', model: string, method: string, params: Record<string, unknown>) => {
    const res = await sdk.client[verb]<T>(model, method, params as never);
    expect(res.errors(), `${model}/${method}`).to.equal(false);
    return res.response() as T;
  };

  it('clients, contacts, numbers, groups and notes', async () => {
    const group = await ok<number>('post', 'client_groups', 'add', { vars: { name: 'Retail' } });
    const clientId = await ok<number>('post', 'clients', 'add', {
      vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', client_group_id: group, numbers: [{ number: '555-0100' }] },
    });
    expect(Object.keys(await ok<Client>('get', 'clients', 'get', { client_id: clientId })).sort()).to.deep.equal(CLIENT);
    const contact = (await ok<Contact[]>('get', 'contacts', 'getAll', { client_id: clientId }))[0];
    expect(Object.keys(contact).sort()).to.deep.equal(CONTACT);
    const [number] = (await ok<Found<ContactNumber[]>>('get', 'contacts', 'getNumbers', { contact_id: contact.id })) as ContactNumber[];
    expect(Object.keys(number).sort()).to.deep.equal(NUMBER);
    expect(Object.keys(await ok<ClientGroup>('get', 'client_groups', 'get', { client_group_id: group })).sort()).to.deep.equal(GROUP);
    const note = await ok<number>('post', 'clients', 'addNote', { client_id: clientId, staff_id: 0, vars: { title: 'Called' } });
    expect(Object.keys(await ok<ClientNote>('get', 'clients', 'getNote', { note_id: note })).sort()).to.deep.equal(NOTE);
    const field = await ok<number>('post', 'clients', 'addCustomField', { vars: { name: 'Segment', type: 'select', values: { smb: 'Small' } } });
    expect(Object.keys(await ok<CustomField>('get', 'clients', 'getCustomField', { field_id: field })).sort()).to.deep.equal(FIELD);
    const contactType = await ok<number>('post', 'contacts', 'addType', { vars: { name: 'Technical' } });
    expect(Object.keys(await ok<CustomContactType>('get', 'contacts', 'getType', { contact_type_id: contactType })).sort()).to.deep.equal(CONTACT_TYPE);
    const transactionType = await ok<number>('post', 'transactions', 'addType', { vars: { name: 'Cheque', type: 'debit' } });
    expect(Object.keys(await ok<CustomTransactionType>('get', 'transactions', 'getType', { type_id: transactionType })).sort()).to.deep.equal(TRANSACTION_TYPE);
  });

  it('invoices and their line items, transactions, currencies and taxes', async () => {
    const clientId = await ok<number>('post', 'clients', 'add', { vars: { first_name: 'Bo', last_name: 'Bill', email: 'bo@example.com' } });
    const tax = await ok<number>('post', 'taxes', 'add', { vars: { name: 'VAT', rate: '20' } });
    const vars = { client_id: clientId, date_billed: '2024-01-01 00:00:00 UTC', date_due: '2024-01-31 00:00:00 UTC', currency: 'USD', lines: [{ description: 'Work', amount: '10', tax: 'true' }] };
    const invoiceId = await ok<number>('post', 'invoices', 'add', { vars });
    const invoice = await ok<Invoice>('get', 'invoices', 'get', { invoice_id: invoiceId });
    expect(Object.keys(invoice).sort()).to.deep.equal(INVOICE);
    expect(Object.keys(invoice.line_items[0]).sort()).to.deep.equal(LINE);
    const payment = await ok<number>('post', 'transactions', 'add', { vars: { client_id: clientId, amount: '5', currency: 'USD', transaction_id: 'ch_1', amounts: [{ invoice_id: invoiceId }] } });
    expect(Object.keys(await ok<Transaction>('get', 'transactions', 'get', { transaction_id: payment })).sort()).to.deep.equal(TRANSACTION);
    expect(Object.keys(await ok<Currency>('get', 'currencies', 'get', { currency_code: 'USD', company_id: 1 })).sort()).to.deep.equal(CURRENCY);
    expect(Object.keys(await ok<Tax>('get', 'taxes', 'get', { tax_id: tax })).sort()).to.deep.equal(TAX);
    expect(await ok<Found<Invoice>>('get', 'invoices', 'get', { invoice_id: 999999 })).to.equal(false);
  });
});
