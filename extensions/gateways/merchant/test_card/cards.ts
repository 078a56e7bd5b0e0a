import { randomBytes } from 'node:crypto';
import { callable, ExtensionContext, int, object, TallyError } from '../../../../host/extensions/kit';
import { chargeTerms } from './charge-terms';
import { CARD_CHARGE, CHARGE_CARD_VARS, CHARGES } from './fields';
import { clientIdOf } from '../../shared/client-id';
import { cardDigits, checkCard, passesLuhn, TEST_CARDS, UNKNOWN_CARD } from './test-cards';

/**
 * Card charges in test mode. An approved charge is recorded as a `cc` transaction of the billing
 * core; a declined one answers its reason. Both are kept as attempts.
 */
export class Cards {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: CHARGE_CARD_VARS,
    returns: CARD_CHARGE,
    description:
      'Charge a test card: vars[client_id], vars[amount], vars[currency], vars[card_number], vars[exp_month], vars[exp_year], vars[cvv], optional vars[invoices][i][invoice_id] to pay. Answers { charge_id, status (approved, declined), reason, message, transaction_id }.',
  })
  async charge(vars: Record<string, unknown>) {
    const key = (await this.ctx.settings()).secret_key ?? '';
    if (!key.startsWith('test_')) throw TallyError.invalid({ secret_key: { test_mode: 'This gateway only runs in test mode: set a secret key starting with test_.' } });
    const clientId = clientIdOf(vars);
    const digits = cardDigits(vars.card_number);
    checkCard(vars, digits, passesLuhn);
    const card = TEST_CARDS[digits] ?? UNKNOWN_CARD;
    const terms = await chargeTerms(this.ctx, vars, card.outcome === 'declined');
    let transactionId: number | null = null;
    if (card.outcome === 'approved') {
      transactionId = await this.ctx.models.transactions.add({
        vars: {
          client_id: vars.client_id,
          amount: vars.amount,
          currency: vars.currency,
          type: 'cc',
          gateway: 'test_card',
          reference: `tc_${randomBytes(8).toString('hex')}`,
          ...(vars.invoices !== undefined ? { invoices: vars.invoices } : {}),
        },
      });
    }
    const reason = card.outcome === 'declined' ? card.reason : null;
    const row = await this.ctx.db
      .insertInto('test_card_charges')
      .values({
        company_id: this.ctx.companyId,
        client_id: clientId,
        amount: terms.amount,
        currency: terms.currency,
        last4: digits.slice(-4),
        status: card.outcome,
        reason,
        transaction_id: transactionId,
        date_added: this.ctx.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { charge_id: row.id, status: card.outcome, reason, message: card.outcome === 'declined' ? card.message : 'Approved.', transaction_id: transactionId };
  }

  @callable({ verb: 'GET', params: [int('client_id')], returns: CHARGES, description: "A client's charge attempts, newest first." })
  getList(clientId: number) {
    return this.ctx.db.selectFrom('test_card_charges').selectAll().where('company_id', '=', this.ctx.companyId).where('client_id', '=', clientId).orderBy('id', 'desc').execute();
  }
}
