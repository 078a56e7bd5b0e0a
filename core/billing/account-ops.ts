import { CallContext } from '../kernel/call-context';
import { is } from '../kernel/input-rules';
import { ModelCalls } from '../kernel/model-calls';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { truthy } from './values';
import { findCurrency } from './find-currency';
import { MESSAGES } from './invoice-rules';
import { callGateway } from './gateway-answers';
import { accountQuery, AccountKind, autodebitAccountOf, invalidAccount, presentAccount, setAutodebitAccount } from './account-store';

/** What cards and bank accounts share: whose they are, how they are stored, listed and forgotten. */

export type Narrow = (q: ReturnType<typeof accountQuery>) => ReturnType<typeof accountQuery>;

/** The contact of vars[contact_id], or the primary contact of vars[client_id], of the caller's company. */
export async function contactOf(ctx: CallContext, vars: Record<string, unknown>) {
  let query = ctx.db
    .selectFrom('contacts')
    .innerJoin('clients', 'clients.id', 'contacts.client_id')
    .select(['contacts.id', 'contacts.client_id', 'contacts.first_name', 'contacts.last_name'])
    .where('clients.company_id', '=', ctx.companyId);
  // A contact_id given but unreadable is refused, not replaced by the client's primary contact.
  if (is.present(vars.contact_id)) query = query.where('contacts.id', '=', is.integer(vars.contact_id) ? Number(vars.contact_id) : 0);
  else if (is.integer(vars.client_id)) query = query.where('contacts.client_id', '=', Number(vars.client_id)).where('contacts.contact_type', '=', 'primary');
  else throw TallyError.invalid({ contact_id: { exists: 'Invalid contact ID.' } });
  const contact = await query.executeTakeFirst();
  if (!contact) throw TallyError.invalid({ contact_id: { exists: 'Invalid contact ID.' } });
  return contact;
}

/**
 * vars[currency] of a new account: none when not given, else one of the company's currencies
 * (any letter case), as an invoice's or a payment's. It was kept cut to three letters
 * (EURO as EUR), a list as none and any code as given, so the account named a currency the
 * company does not bill in.
 */
export async function accountCurrency(ctx: CallContext, vars: Record<string, unknown>, errors: Record<string, Record<string, string>>): Promise<string | null> {
  const value = vars.currency;
  if (value === undefined || value === null || value === '') return null;
  const code = typeof value === 'string' ? value.toUpperCase() : '';
  if (code.length !== 3) errors.currency = { length: MESSAGES.currencyLength };
  else if (!/^[A-Z]{3}$/.test(code)) errors.currency = { format: MESSAGES.currencyFormat };
  else if (!(await findCurrency(ctx.db, ctx.companyId, code))) errors.currency = { exists: MESSAGES.currencyExists };
  return code;
}

/** vars[gateway] (default test_card) when it offers `method` on its tokens model; else null. */
export async function gatewayOffering(ctx: CallContext, calls: ModelCalls, vars: Record<string, unknown>, method: string): Promise<string | null> {
  const gateway = typeof vars.gateway === 'string' && vars.gateway ? vars.gateway : 'test_card';
  return (await calls.available(ctx, `${gateway}.tokens`, method)) ? gateway : null;
}

/** Keeps what the gateway answered (its token, the last four digits), never a number; answers the id. */
export async function keepAccount(
  ctx: CallContext,
  contact: Awaited<ReturnType<typeof contactOf>>,
  vars: Record<string, unknown>,
  kept: { type: AccountKind; gateway: string; reference_id: string; last4: string; card_type: string; expiration: string | null; status: string; currency: string | null },
): Promise<number> {
  const row = await ctx.db
    .insertInto('accounts')
    .values({
      company_id: ctx.companyId,
      client_id: contact.client_id,
      contact_id: contact.id,
      first_name: is.present(vars.first_name) ? String(vars.first_name).trim().slice(0, 255) : contact.first_name,
      last_name: is.present(vars.last_name) ? String(vars.last_name).trim().slice(0, 255) : contact.last_name,
      date_added: formatUtc(new Date()),
      ...kept,
      reference_id: String(kept.reference_id),
      last4: String(kept.last4).slice(-4),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (truthy(vars.autodebit)) await setAutodebitAccount(ctx.db, contact.client_id, row.id);
  return row.id;
}

/** One account of the caller's company, of one kind when given; false when there is none. */
export async function findAccount(ctx: CallContext, accountId: number, kind?: AccountKind) {
  let query = accountQuery(ctx.db, ctx.companyId).where('id', '=', accountId);
  if (kind) query = query.where('type', '=', kind);
  const row = await query.executeTakeFirst();
  return row ? presentAccount(row, await autodebitAccountOf(ctx.db, row.client_id)) : false;
}

export async function requireAccount(ctx: CallContext, accountId: number, kind: AccountKind) {
  const account = await findAccount(ctx, accountId, kind);
  if (!account) throw invalidAccount();
  return account;
}

/** Accounts of a kind, active ones (and, when asked, bank accounts still to verify), oldest first. */
export async function listAccounts(ctx: CallContext, kind: AccountKind, narrow: Narrow, unverified = false) {
  const rows = await narrow(
    accountQuery(ctx.db, ctx.companyId)
      .where('type', '=', kind)
      .where('status', 'in', unverified ? ['active', 'unverified'] : ['active']),
  )
    .orderBy('id')
    .execute();
  const debit = new Map<number, number | null>();
  for (const r of rows) if (!debit.has(r.client_id)) debit.set(r.client_id, await autodebitAccountOf(ctx.db, r.client_id));
  return rows.map((r) => presentAccount(r, debit.get(r.client_id) ?? null));
}

/** Tells the gateway to forget the token; the account becomes inactive and stops being the autodebit account. */
export async function forgetAccount(ctx: CallContext, calls: ModelCalls, account: { id: number; status: string; gateway: string; reference_id: string }) {
  if (account.status !== 'inactive' && (await calls.available(ctx, `${account.gateway}.tokens`, 'remove'))) {
    await callGateway(ctx, calls, account.gateway, 'remove', { reference_id: account.reference_id }, 'forget the account');
  }
  await ctx.db.updateTable('accounts').set({ status: 'inactive' }).where('id', '=', account.id).execute();
  await ctx.db.deleteFrom('client_autodebit').where('account_id', '=', account.id).execute();
}

/** vars[first_name] and vars[last_name] of an edit. */
export async function renameAccount(ctx: CallContext, accountId: number, vars: Record<string, unknown>) {
  const changes: Record<string, string> = {};
  for (const key of ['first_name', 'last_name'] as const) if (is.present(vars[key])) changes[key] = String(vars[key]).trim().slice(0, 255);
  if (Object.keys(changes).length) await ctx.db.updateTable('accounts').set(changes).where('id', '=', accountId).execute();
}
