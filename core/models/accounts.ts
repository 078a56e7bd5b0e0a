import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { accountSort } from './accounts/account-order';
import { is } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { ModelCalls } from '../kernel/model-calls';
import { any, bool, int, object, string } from '../kernel/parameter';
import { bool as yes, int as id, listOf, nothing, orFalse } from '../kernel/shape';
import { TallyError } from '../kernel/tally-error';
import { ACCOUNT, CC_ADD, DEBIT_ACCOUNT, LABELS, NAME_EDIT } from './accounts.fields';
import { AchAccounts } from './accounts/ach-accounts';
import { InvoiceCharge } from './accounts/invoice-charge';
import { CardHelpers } from './accounts/card-helpers';
import { ClientReference } from './accounts/client-reference';
import { requireClientId } from '../billing/client-store';
import { accountCurrency, contactOf, findAccount, forgetAccount, gatewayOffering, keepAccount, listAccounts, renameAccount, requireAccount } from '../billing/account-ops';
import { autodebitAccountOf, CC_TYPES, invalidAccount, setAutodebitAccount } from '../billing/account-store';
import { askGateway, storedAccount } from '../billing/gateway-answers';
import { ExtensionCatalog } from '../kernel/extension-catalog';
import { tokenisesInBrowser } from '../payments/card-form';

/**
 * Payment accounts of clients. A card is handed once to a merchant gateway that stores it
 * (`<gateway>.tokens/store`) and answers a token; Tally keeps that token, the brand, the expiry
 * and the last four digits — never the card number or the security code. Charges go through the
 * gateway with the token (the billing run's autodebit). One account per client, card or bank
 * account (the AchAccounts facet, accounts/ach-accounts.ts), is its autodebit account.
 */
@model('accounts', { facets: [AchAccounts, InvoiceCharge, CardHelpers, ClientReference] })
export class Accounts {
  constructor(
    private readonly ctx: CallContext,
    private readonly calls: ModelCalls,
    private readonly catalog: ExtensionCatalog,
  ) {}

  @callable({
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: CC_ADD,
    returns: id({ description: 'The new account id.' }),
    description:
      "Store a card through a merchant gateway: vars[contact_id] (or vars[client_id]: its primary contact), vars[number], vars[expiration] (yyyymm), vars[security_code] — or instead vars[token], the card as the gateway's client-side tokenisation answered it (stripe_cards: a PaymentMethod id), so the number never reaches Tally — optional vars[first_name], vars[last_name] (default the contact's), vars[gateway] (an installed merchant gateway that stores cards; default test_card), vars[currency], vars[autodebit] (true: the client's autodebit account). Returns the account id.",
  })
  async addCc(vars: Record<string, unknown>) {
    const contact = await contactOf(this.ctx, vars);
    const gateway = await gatewayOffering(this.ctx, this.calls, vars, 'store');
    const expiration = String(vars.expiration ?? '');
    // A card tokenised in the payer's browser (Stripe's PaymentMethod) comes as vars[token]: its number never reaches Tally.
    const token = is.present(vars.token) ? String(vars.token) : null;
    const errors: Record<string, Record<string, string>> = {};
    if (token === null && !/^\d{6}$/.test(expiration)) errors.expiration = { format: 'The expiration must be given as yyyymm.' };
    if (token === null && !is.present(vars.number)) errors.number = { empty: 'Please enter the card number, or the token of a card tokenised by the gateway.' };
    if (token !== null && is.present(vars.number)) errors.number = { token: 'Give the card number or its token, not both.' };
    // A gateway whose card form tokenises in the browser never takes a number: one posted here (a forged or stale form) goes no further.
    if (token === null && gateway && tokenisesInBrowser(this.catalog, gateway)) {
      errors.number = { tokenised: `The gateway "${gateway}" never takes a card number: cards are entered in its own card form, which answers the token to give as vars[token].` };
    }
    const currency = await accountCurrency(this.ctx, vars, errors);
    if (!gateway) errors.gateway = { exists: `The merchant gateway "${String(vars.gateway ?? 'test_card')}" is not installed and enabled, or cannot store cards.` };
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    const stored = storedAccount(
      gateway!,
      await askGateway(
        this.ctx,
        this.calls,
        gateway!,
        'store',
        {
          vars:
            token !== null
              ? { client_id: contact.client_id, token }
              : { client_id: contact.client_id, card_number: vars.number, exp_year: expiration.slice(0, 4), exp_month: expiration.slice(4), cvv: vars.security_code },
        },
        'store the card',
      ),
    );
    return keepAccount(this.ctx, contact, vars, {
      type: 'cc',
      gateway: gateway!,
      reference_id: stored.reference_id,
      last4: stored.last4,
      card_type: stored.type && CC_TYPES[stored.type] ? stored.type : 'other',
      expiration: stored.expiration ?? expiration,
      status: 'active',
      currency,
    });
  }

  @callable({
    verb: 'PUT',
    params: [int('account_id'), object('vars')],
    vars: NAME_EDIT,
    returns: nothing(),
    description: 'Change the name on a card account (vars[first_name], vars[last_name]); a new card is a new account.',
  })
  async editCc(accountId: number, vars: Record<string, unknown>) {
    await requireAccount(this.ctx, accountId, 'cc');
    await renameAccount(this.ctx, accountId, vars);
    return null;
  }

  @callable({
    verb: 'DELETE',
    params: [int('account_id'), bool('soft_delete', { default: true })],
    returns: nothing(),
    description: 'Remove a card: the gateway forgets its token, the account becomes inactive and stops being the autodebit account.',
  })
  async deleteCc(accountId: number, _softDelete: boolean) {
    await forgetAccount(this.ctx, this.calls, await requireAccount(this.ctx, accountId, 'cc'));
    return null;
  }

  @callable({
    verb: 'GET',
    params: [int('account_id'), bool('decrypt', { default: false }), any('passphrase', { default: null }), int('staff_id', { default: null })],
    returns: orFalse(ACCOUNT),
    description: 'A card account (last four digits only: the number is never stored, so decrypt changes nothing), or false.',
  })
  getCc(accountId: number, _decrypt: boolean, _passphrase: unknown, _staffId: number | null) {
    return findAccount(this.ctx, accountId, 'cc');
  }

  @callable({ verb: 'GET', params: [int('contact_id')], returns: listOf(ACCOUNT), description: 'The active card accounts of a contact.' })
  getAllCc(contactId: number) {
    return listAccounts(this.ctx, 'cc', (q) => q.where('contact_id', '=', contactId));
  }

  @callable({ verb: 'GET', params: [int('client_id')], returns: listOf(ACCOUNT), description: 'The active card accounts of a client.' })
  getAllCcByClient(clientId: number) {
    return listAccounts(this.ctx, 'cc', (q) => q.where('client_id', '=', clientId));
  }

  @callable({
    verb: 'GET',
    params: [int('contact_id'), string('sortby', { default: 'last_name' }), string('order', { default: 'asc' })],
    returns: listOf(ACCOUNT),
    description: 'The card accounts of a contact, sorted by sortby (last_name, first_name, last4, expiration, status, date_added, id) in order (asc, desc); another field or order is a 400.',
  })
  getListCc(contactId: number, sortBy: string, order: string) {
    const [column, direction] = accountSort(sortBy, order);
    return listAccounts(this.ctx, 'cc', (q) => q.where('contact_id', '=', contactId).orderBy(column as 'id', direction));
  }

  @callable({ verb: 'GET', params: [int('client_id')], returns: orFalse(ACCOUNT), description: "The client's autodebit account (card or bank account), or false." })
  async getDebitAccount(clientId: number) {
    const accountId = await autodebitAccountOf(this.ctx.db, clientId);
    const account = accountId === null ? false : await findAccount(this.ctx, accountId);
    return account && account.client_id === clientId ? account : false;
  }

  @callable({
    verb: 'POST',
    params: [int('client_id'), object('vars')],
    vars: DEBIT_ACCOUNT,
    returns: nothing(),
    description: 'Make vars[account_id] (an active card or verified bank account of the client) its autodebit account; the failure count restarts.',
  })
  async addDebitAccount(clientId: number, vars: Record<string, unknown>) {
    const account = is.integer(vars.account_id) ? await findAccount(this.ctx, Number(vars.account_id)) : false;
    if (!account || account.client_id !== clientId || account.status !== 'active') throw invalidAccount();
    await setAutodebitAccount(this.ctx.db, clientId, account.id);
    return null;
  }

  @callable({ verb: 'DELETE', params: [int('client_id')], returns: yes(), description: 'Stop debiting the client automatically.' })
  async deleteDebitAccount(clientId: number) {
    // Refused as the writes beside it are, not a "true" that did nothing.
    await requireClientId(this.ctx.db, this.ctx.companyId, clientId);
    await this.ctx.db.deleteFrom('client_autodebit').where('client_id', '=', clientId).execute();
    return true;
  }

  @callable({ verb: 'GET', returns: LABELS, description: 'The card brands and their names.' })
  getCcTypes() {
    return CC_TYPES;
  }

  @callable({ verb: 'GET', returns: LABELS, description: 'The account types and their names.' })
  getTypes() {
    return { cc: 'Credit Card', ach: 'ACH' };
  }
}
