import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { accountSort } from './account-order';
import { is } from '../../kernel/input-rules';
import { facet } from '../../kernel/model';
import { ModelCalls } from '../../kernel/model-calls';
import { any, bool, int, object, string } from '../../kernel/parameter';
import { bool as yes, listOf, nothing, orFalse, int as id } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { ACCOUNT, ACH_ADD, DEPOSITS, LABELS, NAME_EDIT } from '../accounts.fields';
import { ACH_TYPES } from '../../billing/account-store';
import { askGateway, storedAccount } from '../../billing/gateway-answers';
import { accountCurrency, contactOf, findAccount, forgetAccount, gatewayOffering, keepAccount, listAccounts, renameAccount, requireAccount } from '../../billing/account-ops';

/**
 * Bank accounts (ACH), the half of the reference's Accounts model beside cards. A bank account is
 * handed once to a merchant gateway that stores bank accounts (`<gateway>.tokens/storeAch`) and
 * answers a token; Tally keeps the token, the account type and the last four digits, never the
 * account or routing number. A gateway that verifies by micro-deposits leaves the account
 * `unverified` — not charged, not listed unless asked — until `verifyAchDeposits` confirms them.
 * A facet of the accounts model (accounts.ts lists it), so these are `accounts/...` methods.
 */
@facet('accounts')
export class AchAccounts {
  constructor(
    private readonly ctx: CallContext,
    private readonly calls: ModelCalls,
  ) {}

  @callable({
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: ACH_ADD,
    returns: id({ description: 'The new account id.' }),
    description:
      'Store a bank account through a merchant gateway: vars[contact_id] (or vars[client_id]: its primary contact), vars[account], vars[routing], optional vars[type] (checking, savings; checking), vars[first_name], vars[last_name], vars[gateway] (an installed merchant gateway that stores bank accounts; default test_card), vars[currency], vars[autodebit]. Returns the account id; it is unverified until verifyAchDeposits when the gateway verifies by micro-deposits.',
  })
  async addAch(vars: Record<string, unknown>) {
    const contact = await contactOf(this.ctx, vars);
    const gateway = await gatewayOffering(this.ctx, this.calls, vars, 'storeAch');
    const type = vars.type === undefined || vars.type === '' ? 'checking' : String(vars.type);
    const errors: Record<string, Record<string, string>> = {};
    if (!is.present(vars.account)) errors.account = { empty: 'Please enter the bank account number.' };
    if (!is.present(vars.routing)) errors.routing = { empty: 'Please enter the routing number.' };
    if (!ACH_TYPES[type]) errors.type = { format: 'The account type must be checking or savings.' };
    const currency = await accountCurrency(this.ctx, vars, errors);
    if (!gateway) errors.gateway = { exists: `The merchant gateway "${String(vars.gateway ?? 'test_card')}" is not installed and enabled, or cannot store bank accounts.` };
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    const stored = storedAccount(
      gateway!,
      await askGateway(
        this.ctx,
        this.calls,
        gateway!,
        'storeAch',
        {
          vars: { client_id: contact.client_id, account_number: vars.account, routing_number: vars.routing, account_type: type },
        },
        'store the bank account',
      ),
    );
    return keepAccount(this.ctx, contact, vars, {
      type: 'ach',
      gateway: gateway!,
      reference_id: stored.reference_id,
      last4: stored.last4,
      card_type: stored.type && ACH_TYPES[stored.type] ? stored.type : type,
      expiration: null,
      status: stored.verification === 'pending' ? 'unverified' : 'active',
      currency,
    });
  }

  @callable({
    verb: 'PUT',
    params: [int('account_id'), object('vars')],
    vars: NAME_EDIT,
    returns: nothing(),
    description: 'Change the name on a bank account (vars[first_name], vars[last_name]); another account number is a new account.',
  })
  async editAch(accountId: number, vars: Record<string, unknown>) {
    await requireAccount(this.ctx, accountId, 'ach');
    await renameAccount(this.ctx, accountId, vars);
    return null;
  }

  @callable({
    verb: 'DELETE',
    params: [int('account_id'), bool('soft_delete', { default: true })],
    returns: nothing(),
    description: 'Remove a bank account: the gateway forgets its token, the account becomes inactive and stops being the autodebit account.',
  })
  async deleteAch(accountId: number, _softDelete: boolean) {
    await forgetAccount(this.ctx, this.calls, await requireAccount(this.ctx, accountId, 'ach'));
    return null;
  }

  @callable({
    verb: 'GET',
    params: [int('account_id'), bool('decrypt', { default: false }), any('passphrase', { default: null }), int('staff_id', { default: null })],
    returns: orFalse(ACCOUNT),
    description: 'A bank account (last four digits only: the number is never stored, so decrypt changes nothing), or false.',
  })
  getAch(accountId: number, _decrypt: boolean, _passphrase: unknown, _staffId: number | null) {
    return findAccount(this.ctx, accountId, 'ach');
  }

  @callable({
    verb: 'GET',
    params: [int('contact_id'), bool('unverified', { default: false })],
    returns: listOf(ACCOUNT),
    description: 'The active bank accounts of a contact; unverified=true adds those still to verify.',
  })
  getAllAch(contactId: number, unverified: boolean) {
    return listAccounts(this.ctx, 'ach', (q) => q.where('contact_id', '=', contactId), unverified);
  }

  @callable({
    verb: 'GET',
    params: [int('client_id'), bool('unverified', { default: false })],
    returns: listOf(ACCOUNT),
    description: 'The active bank accounts of a client; unverified=true adds those still to verify.',
  })
  getAllAchByClient(clientId: number, unverified: boolean) {
    return listAccounts(this.ctx, 'ach', (q) => q.where('client_id', '=', clientId), unverified);
  }

  @callable({
    verb: 'GET',
    params: [int('contact_id'), string('sortby', { default: 'last_name' }), string('order', { default: 'asc' })],
    returns: listOf(ACCOUNT),
    description: 'The active bank accounts of a contact, sorted by sortby (last_name, first_name, last4, expiration, status, date_added, id) in order (asc, desc); another field or order is a 400.',
  })
  getListAch(contactId: number, sortBy: string, order: string) {
    const [column, direction] = accountSort(sortBy, order);
    return listAccounts(this.ctx, 'ach', (q) => q.where('contact_id', '=', contactId).orderBy(column as 'id', direction));
  }

  @callable({
    verb: 'POST',
    params: [int('account_id'), object('vars')],
    vars: DEPOSITS,
    returns: yes({ description: "true: verified, the account is active; false: the amounts are wrong (after the gateway's limit of wrong answers the account becomes inactive: add it again)." }),
    description: 'Verify an unverified bank account with the two micro-deposits its gateway sent: vars[first_deposit], vars[second_deposit] (dollars, 0.32, or cents, 32).',
  })
  async verifyAchDeposits(accountId: number, vars: Record<string, unknown>) {
    const account = await requireAccount(this.ctx, accountId, 'ach');
    const errors: Record<string, Record<string, string>> = {};
    if (account.status !== 'unverified') errors.account_id = { verified: account.status === 'active' ? 'The bank account is already verified.' : 'The bank account is no longer in use.' };
    for (const key of ['first_deposit', 'second_deposit']) {
      if (!is.present(vars[key])) errors[key] = { empty: 'Please enter both deposits.' };
      // A list or set is not an amount: read as text it became one ([32] is "32") and used up a try.
      else if (typeof vars[key] !== 'string' && typeof vars[key] !== 'number') errors[key] = { format: 'Give each deposit as one amount: 0.32 or 32.' };
    }
    if (!errors.account_id && !(await this.calls.available(this.ctx, `${account.gateway}.tokens`, 'verifyDeposits')))
      errors.gateway = { exists: `The gateway "${account.gateway}" is not installed and enabled, or does not verify bank accounts.` };
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    const answer = await askGateway(
      this.ctx,
      this.calls,
      account.gateway,
      'verifyDeposits',
      {
        vars: { reference_id: account.reference_id, client_id: account.client_id, amounts: [vars.first_deposit, vars.second_deposit] },
      },
      'check the deposits',
    );
    if (answer.status === 'verified') await this.ctx.db.updateTable('accounts').set({ status: 'active' }).where('id', '=', accountId).execute();
    if (answer.status === 'failed') await forgetAccount(this.ctx, this.calls, account);
    return answer.status === 'verified';
  }

  @callable({ verb: 'GET', returns: LABELS, description: 'The bank account types and their names.' })
  getAchTypes() {
    return ACH_TYPES;
  }
}
