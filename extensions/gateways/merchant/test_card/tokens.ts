import { randomBytes } from 'node:crypto';
import { callable, ExtensionContext, object, string, TallyError } from '../../../../host/extensions/kit';
import { cardBrand, cardDigits, checkCard, passesLuhn, TEST_CARDS, UNKNOWN_CARD } from './test-cards';

/**
 * Stored cards (tokenisation) in test mode, the contract a merchant gateway offers the core's
 * `accounts`: `store` takes the card once and answers a token, `charge` charges a token, `remove`
 * forgets it. The token stands for the test card's outcome (approved, or a decline reason) and its
 * last four digits: neither this gateway nor the core keeps the number or the security code.
 */
export class Tokens {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({ verb: 'POST', params: [object('vars')], description: 'Store a card for vars[client_id]: vars[card_number], vars[exp_month], vars[exp_year], vars[cvv]. Answers { reference_id (the token), last4, type (visa, mc, amex, other), expiration (yyyymm) }.' })
  async store(vars: Record<string, unknown>) {
    await this.requireTestMode();
    const digits = cardDigits(vars.card_number);
    checkCard(vars, digits, passesLuhn);
    const card = TEST_CARDS[digits] ?? UNKNOWN_CARD;
    const token = `tok_${randomBytes(12).toString('hex')}`;
    const expiration = `${Number(vars.exp_year)}${String(Number(vars.exp_month)).padStart(2, '0')}`;
    const brand = cardBrand(digits);
    await this.ctx.db
      .insertInto('test_card_tokens')
      .values({ company_id: this.ctx.companyId, client_id: Number(vars.client_id), token, last4: digits.slice(-4), brand, expiration, card_key: card.outcome === 'approved' ? 'approved' : card.reason, status: 'active', date_added: this.ctx.now() })
      .execute();
    return { reference_id: token, last4: digits.slice(-4), type: brand, expiration };
  }

  @callable({ verb: 'POST', params: [object('vars')], description: 'Charge a stored card: vars[reference_id], vars[client_id], vars[amount], vars[currency], optional vars[invoices][i][invoice_id]. Answers { status (approved, declined), reason, message, transaction_id }.' })
  async charge(vars: Record<string, unknown>) {
    await this.requireTestMode();
    const row = await this.ctx.db.selectFrom('test_card_tokens').selectAll().where('company_id', '=', this.ctx.companyId).where('token', '=', String(vars.reference_id ?? '')).where('status', '=', 'active').executeTakeFirst();
    if (!row || Number(row.client_id) !== Number(vars.client_id)) throw TallyError.invalid({ reference_id: { exists: 'No stored card with this reference for this client.' } });
    const declined = row.card_key === 'approved' ? null : Object.values(TEST_CARDS).find((c) => c.outcome === 'declined' && c.reason === row.card_key) ?? UNKNOWN_CARD;
    let transactionId: number | null = null;
    if (!declined) {
      transactionId = await this.ctx.models.transactions.add({
        vars: { client_id: vars.client_id, amount: vars.amount, currency: vars.currency, type: 'cc', gateway: 'test_card', reference: `tc_${randomBytes(8).toString('hex')}`, ...(vars.invoices !== undefined ? { invoices: vars.invoices } : {}) },
      });
    }
    const status = declined ? 'declined' : 'approved';
    const reason = declined && declined.outcome === 'declined' ? declined.reason : null;
    await this.ctx.db
      .insertInto('test_card_charges')
      .values({ company_id: this.ctx.companyId, client_id: Number(vars.client_id), amount: String(vars.amount), currency: String(vars.currency), last4: row.last4, status, reason, transaction_id: transactionId, date_added: this.ctx.now() })
      .execute();
    return { status, reason, message: declined && declined.outcome === 'declined' ? declined.message : 'Approved.', transaction_id: transactionId };
  }

  @callable({ verb: 'POST', params: [string('reference_id')], description: 'Forget a stored card.' })
  async remove(referenceId: string) {
    await this.ctx.db.updateTable('test_card_tokens').set({ status: 'removed' }).where('company_id', '=', this.ctx.companyId).where('token', '=', referenceId).execute();
    return null;
  }

  private async requireTestMode(): Promise<void> {
    const key = (await this.ctx.settings()).secret_key ?? '';
    if (!key.startsWith('test_')) throw TallyError.invalid({ secret_key: { test_mode: 'This gateway only runs in test mode: set a secret key starting with test_.' } });
  }
}
