import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { is } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { ModelCalls } from '../kernel/model-calls';
import { bool, int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { truthy } from './billing/values';
import { accountQuery, autodebitAccountOf, CC_TYPES, invalidAccount, presentAccount, setAutodebitAccount } from './accounts/account-store';

/**
 * Payment accounts of clients. A card is handed once to a merchant gateway that stores it
 * (`<gateway>.tokens/store`) and answers a token; Tally keeps that token, the brand, the expiry
 * and the last four digits — never the card number or the security code. Charges go through the
 * gateway with the token (the billing run's autodebit). One account per client is its autodebit
 * account.
 */
@model('accounts')
export class Accounts {
  constructor(
    private readonly ctx: CallContext,
    private readonly calls: ModelCalls,
  ) {}

  @callable({
    verb: 'POST',
    params: [object('vars', { default: {} })],
    description: 'Store a card through a merchant gateway: vars[contact_id] (or vars[client_id]: its primary contact), vars[number], vars[expiration] (yyyymm), vars[security_code], optional vars[first_name], vars[last_name] (default the contact\'s), vars[gateway] (an installed merchant gateway that stores cards; default test_card), vars[currency], vars[autodebit] (true: the client\'s autodebit account). Returns the account id.',
  })
  async addCc(vars: Record<string, unknown>) {
    const contact = await this.contactOf(vars);
    const gateway = typeof vars.gateway === 'string' && vars.gateway ? vars.gateway : 'test_card';
    const expiration = String(vars.expiration ?? '');
    const errors: Record<string, Record<string, string>> = {};
    if (!/^\d{6}$/.test(expiration)) errors.expiration = { format: 'The expiration must be given as yyyymm.' };
    if (!is.present(vars.number)) errors.number = { empty: 'Please enter the card number.' };
    if (!(await this.calls.available(this.ctx, `${gateway}.tokens`))) errors.gateway = { exists: `The merchant gateway "${gateway}" is not installed and enabled, or cannot store cards.` };
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    const stored = (await this.calls.call(this.ctx, `${gateway}.tokens`, 'store', {
      vars: { client_id: contact.client_id, card_number: vars.number, exp_year: expiration.slice(0, 4), exp_month: expiration.slice(4), cvv: vars.security_code },
    })) as { reference_id: string; last4: string; type: string; expiration: string };
    const row = await this.ctx.db
      .insertInto('accounts')
      .values({
        company_id: this.ctx.companyId,
        client_id: contact.client_id,
        contact_id: contact.id,
        type: 'cc',
        first_name: is.present(vars.first_name) ? String(vars.first_name).trim() : contact.first_name,
        last_name: is.present(vars.last_name) ? String(vars.last_name).trim() : contact.last_name,
        gateway,
        reference_id: String(stored.reference_id),
        last4: String(stored.last4).slice(-4),
        card_type: CC_TYPES[stored.type] ? stored.type : 'other',
        expiration: stored.expiration ?? expiration,
        currency: typeof vars.currency === 'string' ? vars.currency.toUpperCase().slice(0, 3) : null,
        status: 'active',
        date_added: formatUtc(new Date()),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (truthy(vars.autodebit)) await setAutodebitAccount(this.ctx.db, contact.client_id, row.id);
    return row.id;
  }

  @callable({ verb: 'PUT', params: [int('account_id'), object('vars')], description: 'Change the name on a card account (vars[first_name], vars[last_name]); a new card is a new account.' })
  async editCc(accountId: number, vars: Record<string, unknown>) {
    await this.require(accountId);
    const changes: Record<string, string> = {};
    for (const key of ['first_name', 'last_name'] as const) if (is.present(vars[key])) changes[key] = String(vars[key]).trim().slice(0, 255);
    if (Object.keys(changes).length) await this.ctx.db.updateTable('accounts').set(changes).where('id', '=', accountId).execute();
    return null;
  }

  @callable({ verb: 'DELETE', params: [int('account_id'), bool('soft_delete', { default: true })], description: 'Remove a card: the gateway forgets its token, the account becomes inactive and stops being the autodebit account.' })
  async deleteCc(accountId: number, _softDelete: boolean) {
    const account = await this.require(accountId);
    if (account.status === 'active' && (await this.calls.available(this.ctx, `${account.gateway}.tokens`))) {
      await this.calls.call(this.ctx, `${account.gateway}.tokens`, 'remove', { reference_id: account.reference_id });
    }
    await this.ctx.db.updateTable('accounts').set({ status: 'inactive' }).where('id', '=', accountId).execute();
    await this.ctx.db.deleteFrom('client_autodebit').where('account_id', '=', accountId).execute();
    return null;
  }

  @callable({ verb: 'GET', params: [int('account_id'), bool('decrypt', { default: false })], description: 'A card account (last four digits only: the number is never stored), or false.' })
  async getCc(accountId: number, _decrypt: boolean) {
    const row = await accountQuery(this.ctx.db, this.ctx.companyId).where('id', '=', accountId).executeTakeFirst();
    return row ? presentAccount(row, await autodebitAccountOf(this.ctx.db, row.client_id)) : false;
  }

  @callable({ verb: 'GET', params: [int('contact_id')], description: 'The active card accounts of a contact.' })
  getAllCc(contactId: number) {
    return this.list((q) => q.where('contact_id', '=', contactId));
  }

  @callable({ verb: 'GET', params: [int('client_id')], description: 'The active card accounts of a client.' })
  getAllCcByClient(clientId: number) {
    return this.list((q) => q.where('client_id', '=', clientId));
  }

  @callable({ verb: 'GET', params: [int('contact_id'), string('sortby', { default: 'last_name' }), string('order', { default: 'asc' })], description: 'The card accounts of a contact, by last name.' })
  getListCc(contactId: number, _sortBy: string, order: string) {
    return this.list((q) => q.where('contact_id', '=', contactId).orderBy('last_name', order.toLowerCase() === 'desc' ? 'desc' : 'asc'));
  }

  @callable({ verb: 'GET', params: [int('client_id')], description: 'The client\'s autodebit account, or false.' })
  async getDebitAccount(clientId: number) {
    const accountId = await autodebitAccountOf(this.ctx.db, clientId);
    const account = accountId === null ? false : await this.getCc(accountId, false);
    return account && account.client_id === clientId ? account : false;
  }

  @callable({ verb: 'POST', params: [int('client_id'), object('vars')], description: 'Make vars[account_id] (an active account of the client) its autodebit account; the failure count restarts.' })
  async addDebitAccount(clientId: number, vars: Record<string, unknown>) {
    const account = is.integer(vars.account_id) ? await this.getCc(Number(vars.account_id), false) : false;
    if (!account || account.client_id !== clientId || account.status !== 'active') throw invalidAccount();
    await setAutodebitAccount(this.ctx.db, clientId, account.id);
    return null;
  }

  @callable({ verb: 'DELETE', params: [int('client_id')], description: 'Stop debiting the client automatically.' })
  async deleteDebitAccount(clientId: number) {
    // Another company's client is no client here: refused as the writes beside it are, not a "true" that did nothing.
    const client = await this.ctx.db.selectFrom('clients').select('id').where('company_id', '=', this.ctx.companyId).where('id', '=', clientId).executeTakeFirst();
    if (!client) throw TallyError.invalid({ client_id: { exists: 'Invalid client ID.' } });
    await this.ctx.db.deleteFrom('client_autodebit').where('client_id', '=', client.id).execute();
    return true;
  }

  @callable({ verb: 'GET', description: 'The card brands and their names.' })
  getCcTypes() {
    return CC_TYPES;
  }

  @callable({ verb: 'GET', description: 'The account types and their names.' })
  getTypes() {
    return { cc: 'Credit Card', ach: 'ACH' };
  }

  private async list(narrow: (q: ReturnType<typeof accountQuery>) => ReturnType<typeof accountQuery>) {
    const rows = await narrow(accountQuery(this.ctx.db, this.ctx.companyId).where('status', '=', 'active')).orderBy('id').execute();
    const debit = new Map<number, number | null>();
    for (const r of rows) if (!debit.has(r.client_id)) debit.set(r.client_id, await autodebitAccountOf(this.ctx.db, r.client_id));
    return rows.map((r) => presentAccount(r, debit.get(r.client_id) ?? null));
  }

  private async require(accountId: number) {
    const row = await accountQuery(this.ctx.db, this.ctx.companyId).where('id', '=', accountId).executeTakeFirst();
    if (!row) throw invalidAccount();
    return row;
  }

  private async contactOf(vars: Record<string, unknown>) {
    let query = this.ctx.db.selectFrom('contacts').innerJoin('clients', 'clients.id', 'contacts.client_id').select(['contacts.id', 'contacts.client_id', 'contacts.first_name', 'contacts.last_name']).where('clients.company_id', '=', this.ctx.companyId);
    if (is.integer(vars.contact_id)) query = query.where('contacts.id', '=', Number(vars.contact_id));
    else if (is.integer(vars.client_id)) query = query.where('contacts.client_id', '=', Number(vars.client_id)).where('contacts.contact_type', '=', 'primary');
    else throw TallyError.invalid({ contact_id: { exists: 'Invalid contact ID.' } });
    const contact = await query.executeTakeFirst();
    if (!contact) throw TallyError.invalid({ contact_id: { exists: 'Invalid contact ID.' } });
    return contact;
  }
}
