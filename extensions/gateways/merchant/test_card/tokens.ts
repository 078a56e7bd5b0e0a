import { randomBytes } from 'node:crypto';
import { callable, ExtensionContext, object, shape, string, TallyError } from '../../../../host/extensions/kit';
import { chargeTerms } from './charge-terms';
import { CHARGE_TOKEN_VARS, STORE_ACH_VARS, STORE_CARD_VARS, STORED_ACH, STORED_CARD, TOKEN_CHARGE, VERIFIED, VERIFY_VARS } from './fields';
import { clientIdOf } from '../../shared/client-id';
import { bankDigits, checkBankAccount, DEPOSIT_ATTEMPTS, depositCents, TEST_BANK_ACCOUNTS, TEST_DEPOSITS, UNKNOWN_BANK_ACCOUNT } from './test-bank-accounts';
import { cardBrand, cardDigits, checkCard, passesLuhn, TEST_CARDS, UNKNOWN_CARD } from './test-cards';

type Outcome = { outcome: 'approved' } | { outcome: 'declined'; reason: string; message: string };

/**
 * Stored cards (tokenisation) in test mode, the contract a merchant gateway offers the core's
 * `accounts`: `store` takes the card once and answers a token, `charge` charges a token, `remove`
 * forgets it. The token stands for the test card's outcome (approved, or a decline reason) and its
 * last four digits: neither this gateway nor the core keeps the number or the security code.
 * Bank accounts (ACH) the same way: `storeAch` answers a token that can be charged once the two
 * micro-deposits the gateway "sent" are confirmed (`verifyDeposits`); neither side keeps the
 * account or routing number.
 */
export class Tokens {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: STORE_CARD_VARS,
    returns: STORED_CARD,
    description:
      'Store a card for vars[client_id]: vars[card_number], vars[exp_month], vars[exp_year], vars[cvv]. Answers { reference_id (the token), last4, type (visa, mc, amex, other), expiration (yyyymm) }.',
  })
  async store(vars: Record<string, unknown>) {
    await this.requireTestMode();
    const clientId = clientIdOf(vars);
    const digits = cardDigits(vars.card_number);
    checkCard(vars, digits, passesLuhn);
    const card = TEST_CARDS[digits] ?? UNKNOWN_CARD;
    const token = `tok_${randomBytes(12).toString('hex')}`;
    const expiration = `${Number(vars.exp_year)}${String(Number(vars.exp_month)).padStart(2, '0')}`;
    const brand = cardBrand(digits);
    await this.ctx.db
      .insertInto('test_card_tokens')
      .values({
        company_id: this.ctx.companyId,
        client_id: clientId,
        token,
        last4: digits.slice(-4),
        brand,
        expiration,
        card_key: card.outcome === 'approved' ? 'approved' : card.reason,
        status: 'active',
        date_added: this.ctx.now(),
      })
      .execute();
    return { reference_id: token, last4: digits.slice(-4), type: brand, expiration };
  }

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: STORE_ACH_VARS,
    returns: STORED_ACH,
    description:
      'Store a bank account for vars[client_id]: vars[account_number], vars[routing_number], vars[account_type] (checking, savings; checking). Two micro-deposits are "sent" to it (in test mode always 0.32 and 0.45): it can be charged once verifyDeposits confirms them. Answers { reference_id (the token), last4, type, verification (pending) }.',
  })
  async storeAch(vars: Record<string, unknown>) {
    await this.requireTestMode();
    const clientId = clientIdOf(vars);
    const account = bankDigits(vars.account_number);
    checkBankAccount(vars, account, bankDigits(vars.routing_number));
    const outcome = TEST_BANK_ACCOUNTS[account] ?? UNKNOWN_BANK_ACCOUNT;
    const token = `btok_${randomBytes(12).toString('hex')}`;
    const type = vars.account_type === undefined ? 'checking' : String(vars.account_type);
    await this.ctx.db
      .insertInto('test_card_bank_accounts')
      .values({
        company_id: this.ctx.companyId,
        client_id: clientId,
        token,
        last4: account.slice(-4),
        account_type: type,
        account_key: outcome.outcome === 'approved' ? 'approved' : outcome.reason,
        status: 'unverified',
        failed_attempts: 0,
        date_added: this.ctx.now(),
      })
      .execute();
    return { reference_id: token, last4: account.slice(-4), type, verification: 'pending' };
  }

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: VERIFY_VARS,
    returns: VERIFIED,
    description: `Confirm a bank account's micro-deposits: vars[reference_id], vars[client_id], vars[amounts][0] and vars[amounts][1] (dollars, 0.32, or cents, 32; in any order). Answers { status (verified, mismatch, failed: after ${DEPOSIT_ATTEMPTS} wrong answers the account cannot be verified), attempts_left }.`,
  })
  async verifyDeposits(vars: Record<string, unknown>) {
    await this.requireTestMode();
    const row = await this.bankAccount(vars, 'unverified');
    const given = (Array.isArray(vars.amounts) ? vars.amounts : Object.values((vars.amounts ?? {}) as object)).map(depositCents);
    if (given.length !== 2 || given.some((c) => c === null)) throw TallyError.invalid({ amounts: { format: 'Give the two deposits, as 0.32 or 32.' } });
    const matches = [...given].sort((a, b) => a! - b!).join() === [...TEST_DEPOSITS].sort((a, b) => a - b).join();
    const failures = matches ? Number(row.failed_attempts) : Number(row.failed_attempts) + 1;
    const status = matches ? 'verified' : failures >= DEPOSIT_ATTEMPTS ? 'failed' : 'unverified';
    await this.ctx.db.updateTable('test_card_bank_accounts').set({ status, failed_attempts: failures }).where('id', '=', row.id).execute();
    return { status: status === 'unverified' ? 'mismatch' : status, attempts_left: Math.max(0, DEPOSIT_ATTEMPTS - failures) };
  }

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: CHARGE_TOKEN_VARS,
    returns: TOKEN_CHARGE,
    description:
      'Charge a stored card or a verified bank account: vars[reference_id], vars[client_id], vars[amount], vars[currency], optional vars[invoices][i][invoice_id]. Answers { status (approved, declined), reason, message, transaction_id }.',
  })
  async charge(vars: Record<string, unknown>) {
    await this.requireTestMode();
    const bank = String(vars.reference_id ?? '').startsWith('btok_');
    let last4: string;
    let outcome: Outcome;
    if (bank) {
      const row = await this.bankAccount(vars, 'verified');
      last4 = row.last4;
      outcome =
        row.account_key === 'approved' ? { outcome: 'approved' } : (Object.values(TEST_BANK_ACCOUNTS).find((a) => a.outcome === 'declined' && a.reason === row.account_key) ?? UNKNOWN_BANK_ACCOUNT);
    } else {
      const row = await this.ctx.db
        .selectFrom('test_card_tokens')
        .selectAll()
        .where('company_id', '=', this.ctx.companyId)
        .where('token', '=', String(vars.reference_id ?? ''))
        .where('status', '=', 'active')
        .executeTakeFirst();
      if (!row || Number(row.client_id) !== Number(vars.client_id)) throw TallyError.invalid({ reference_id: { exists: 'No stored card with this reference for this client.' } });
      last4 = row.last4;
      outcome = row.card_key === 'approved' ? { outcome: 'approved' } : (Object.values(TEST_CARDS).find((c) => c.outcome === 'declined' && c.reason === row.card_key) ?? UNKNOWN_CARD);
    }
    const declined = outcome.outcome === 'declined' ? outcome : null;
    const terms = await chargeTerms(this.ctx, vars, !!declined);
    let transactionId: number | null = null;
    if (!declined) {
      transactionId = await this.ctx.models.transactions.add({
        vars: {
          client_id: vars.client_id,
          amount: vars.amount,
          currency: vars.currency,
          type: bank ? 'ach' : 'cc',
          gateway: 'test_card',
          reference: `tc_${randomBytes(8).toString('hex')}`,
          ...(vars.invoices !== undefined ? { invoices: vars.invoices } : {}),
        },
      });
    }
    const status = declined ? 'declined' : 'approved';
    await this.ctx.db
      .insertInto('test_card_charges')
      .values({
        company_id: this.ctx.companyId,
        client_id: Number(vars.client_id),
        amount: terms.amount,
        currency: terms.currency,
        last4,
        status,
        reason: declined?.reason ?? null,
        transaction_id: transactionId,
        date_added: this.ctx.now(),
      })
      .execute();
    return { status, reason: declined?.reason ?? null, message: declined?.message ?? 'Approved.', transaction_id: transactionId };
  }

  @callable({
    verb: 'GET',
    params: [object('vars')],
    returns: shape.orNull(shape.string()),
    description: 'The customer reference this test gateway keeps for vars[client_id] once it stored something of theirs (tc_cus_<client id>), else null (accounts/getClientReferenceId).',
  })
  async clientReference(vars: Record<string, unknown>) {
    const clientId = clientIdOf(vars);
    const stored = await this.ctx.db.selectFrom('test_card_tokens').select('id').where('client_id', '=', clientId).executeTakeFirst();
    return stored ? `tc_cus_${clientId}` : null;
  }

  @callable({ verb: 'POST', params: [string('reference_id')], returns: shape.nothing(), description: 'Forget a stored card or bank account.' })
  async remove(referenceId: string) {
    const table = referenceId.startsWith('btok_') ? 'test_card_bank_accounts' : 'test_card_tokens';
    await this.ctx.db.updateTable(table).set({ status: 'removed' }).where('company_id', '=', this.ctx.companyId).where('token', '=', referenceId).execute();
    return null;
  }

  /** The client's stored bank account of vars[reference_id] in a status, or the reason it cannot be used. */
  private async bankAccount(vars: Record<string, unknown>, status: 'unverified' | 'verified') {
    const row = await this.ctx.db
      .selectFrom('test_card_bank_accounts')
      .selectAll()
      .where('company_id', '=', this.ctx.companyId)
      .where('token', '=', String(vars.reference_id ?? ''))
      .executeTakeFirst();
    if (!row || Number(row.client_id) !== Number(vars.client_id) || row.status === 'removed')
      throw TallyError.invalid({ reference_id: { exists: 'No stored bank account with this reference for this client.' } });
    if (row.status !== status) {
      const why =
        row.status === 'failed'
          ? 'Its micro-deposits were answered wrong too often: store the account again.'
          : row.status === 'verified'
            ? 'The bank account is already verified.'
            : 'The bank account is not verified yet: confirm its micro-deposits first.';
      throw TallyError.invalid({ reference_id: { verification: why } });
    }
    return row;
  }

  private async requireTestMode(): Promise<void> {
    const key = (await this.ctx.settings()).secret_key ?? '';
    if (!key.startsWith('test_')) throw TallyError.invalid({ secret_key: { test_mode: 'This gateway only runs in test mode: set a secret key starting with test_.' } });
  }
}
