import { expect } from 'chai';
import fc from 'fast-check';
import { NonsenseAnswer, readVerdict } from '../../../core/payments/gateway-verdict';
import { maskHeaders } from '../../../core/payments/masked-headers';

const PAYMENT = { client_id: 3, amount: '12.50', currency: 'usd', status: 'approved', transaction_id: 'pi_1' };

describe("a gateway's validate answer, read", () => {
  it('reads a refusal, an ignored notification and a payment', () => {
    expect(readVerdict({ genuine: false, reason: 'bad signature' })).to.deep.equal({ kind: 'refused', reason: 'bad signature' });
    expect(readVerdict({ genuine: false })).to.deep.equal({ kind: 'refused', reason: 'not genuine' });
    expect(readVerdict({ ignored: 'customer.updated' })).to.deep.equal({ kind: 'ignored', reason: 'customer.updated' });
    expect(readVerdict({ ...PAYMENT, invoices: [{ invoice_id: '7' }, { invoice_id: 8, amount: 2 }] })).to.deep.equal({
      kind: 'payment',
      payment: {
        client_id: 3,
        amount: '12.50',
        currency: 'USD',
        status: 'approved',
        transaction_id: 'pi_1',
        parent_transaction_id: null,
        invoices: [
          { invoice_id: 7, amount: null },
          { invoice_id: 8, amount: '2' },
        ],
      },
    });
  });

  for (const [what, answer] of [
    ['nothing', undefined],
    ['a list', [PAYMENT]],
    ['a payment without a client', { ...PAYMENT, client_id: undefined }],
    ['a negative amount', { ...PAYMENT, amount: '-1' }],
    ['an amount with 5 places', { ...PAYMENT, amount: '1.00001' }],
    ['a status of its own', { ...PAYMENT, status: 'maybe' }],
    ['a currency of 4 letters', { ...PAYMENT, currency: 'USDT' }],
    ['a transaction id of 256 characters', { ...PAYMENT, transaction_id: 'x'.repeat(256) }],
    ['invoices that are not a list', { ...PAYMENT, invoices: { 0: { invoice_id: 1 } } }],
    ['an invoice without an id', { ...PAYMENT, invoices: [{ amount: '1' }] }],
  ] as const) {
    it(`refuses ${what} as nonsense`, () => {
      expect(() => readVerdict(answer)).to.throw(NonsenseAnswer);
    });
  }

  it('answers a verdict or NonsenseAnswer for anything, never another error', () => {
    fc.assert(
      fc.property(fc.anything(), (answer) => {
        try {
          expect(['refused', 'ignored', 'payment']).to.include(readVerdict(answer).kind);
        } catch (error) {
          if (!(error instanceof NonsenseAnswer)) throw error;
        }
      }),
    );
  });
});

describe('headers kept in the inbox', () => {
  it('masks credentials, cookies, keys and secrets, keeps signatures and the rest as received', () => {
    expect(
      maskHeaders({
        Authorization: 'Basic x',
        cookie: 'a=b',
        'X-Api-Key': 'k',
        'x-webhook-secret': 's',
        'x-auth-token': 't',
        'stripe-signature': 't=1,v1=ab',
        'x-forwarded-for': ['1.1.1.1', '2.2.2.2'],
        skipped: undefined,
      }),
    ).to.deep.equal({
      authorization: '********',
      cookie: '********',
      'x-api-key': '********',
      'x-webhook-secret': '********',
      'x-auth-token': '********',
      'stripe-signature': 't=1,v1=ab',
      'x-forwarded-for': '1.1.1.1, 2.2.2.2',
    });
  });
});
