import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { is } from '../../kernel/input-rules';
import { facet } from '../../kernel/model';
import { int, object, string } from '../../kernel/parameter';
import { bool as yes, inputs, int as count, nothing, orFalse, record, string as text } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { findAccount } from '../../billing/account-ops';
import { invalidAccount, setAutodebitAccount } from '../../billing/account-store';
import { requireClientId } from '../../billing/client-store';

/** clients/getDebitAccount's record, as the reference's. */
const DEBIT_ACCOUNT = record({
  client_id: count(),
  account_id: count(),
  type: text({ enum: ['cc', 'ach'] }),
  failed_count: count({ description: 'Failed automatic debits since it was chosen or last succeeded; at the autodebit_attempts setting it stops being debited.' }),
});

const DEBIT_VARS = inputs({
  account_id: count({ required: true, description: 'An active card or verified bank account of the client.' }),
  type: text({ enum: ['cc', 'ach'], description: "The account's kind; when given it must match." }),
});

const TYPES = ['cc', 'ach'] as const;

/**
 * The client's autodebit account where the reference keeps it, on clients: which account the billing
 * run charges and how often that failed. accounts/addDebitAccount, getDebitAccount and
 * deleteDebitAccount are the same choice answered as account records. A facet of the clients
 * model (clients.ts lists it), so these are `clients/...` methods.
 */
@facet('clients')
export class ClientDebitAccount {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    verb: 'POST',
    params: [int('client_id'), object('vars')],
    vars: DEBIT_VARS,
    returns: nothing(),
    description: "Make vars[account_id] (vars[type] cc or ach) the client's autodebit account; its failure count starts at 0.",
  })
  async addDebitAccount(clientId: number, vars: Record<string, unknown>) {
    await requireClientId(this.ctx.db, this.ctx.companyId, clientId);
    if (is.present(vars.type) && !TYPES.includes(vars.type as never)) throw TallyError.invalid({ type: { format: 'The account type must be cc or ach.' } });
    const account = is.integer(vars.account_id) ? await findAccount(this.ctx, Number(vars.account_id), is.present(vars.type) ? (vars.type as 'cc' | 'ach') : undefined) : false;
    if (!account || account.client_id !== clientId || account.status !== 'active') throw invalidAccount();
    await setAutodebitAccount(this.ctx.db, clientId, account.id);
    return null;
  }

  @callable({ verb: 'GET', params: [int('client_id')], returns: orFalse(DEBIT_ACCOUNT), description: "The client's autodebit account ({client_id, account_id, type, failed_count}), or false." })
  async getDebitAccount(clientId: number) {
    const row = await this.debitAccount(clientId);
    return row ? { client_id: clientId, account_id: row.account_id, type: row.type, failed_count: Number(row.failures) } : false;
  }

  @callable({ verb: 'DELETE', params: [int('client_id')], returns: yes(), description: 'Stop debiting the client automatically: true when it had an autodebit account, false when not.' })
  async deleteDebitAccount(clientId: number) {
    await requireClientId(this.ctx.db, this.ctx.companyId, clientId);
    const result = await this.ctx.db.deleteFrom('client_autodebit').where('client_id', '=', clientId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  @callable({
    verb: 'POST',
    params: [int('client_id'), string('type', { default: null }), int('account_id', { default: null })],
    returns: nothing(),
    description:
      "Count one failed automatic debit of the client's autodebit account (only when it is of type and is account_id, as far as they are given); at the autodebit_attempts setting the billing run stops debiting it.",
  })
  async setDebitAccountFailure(clientId: number, type: string | null, accountId: number | null) {
    if (await this.matchingDebitAccount(clientId, type, accountId)) {
      await this.ctx.db
        .updateTable('client_autodebit')
        .set((eb) => ({ failures: eb('failures', '+', 1) }))
        .where('client_id', '=', clientId)
        .execute();
    }
    return null;
  }

  @callable({
    verb: 'POST',
    params: [int('client_id'), string('type', { default: null }), int('account_id', { default: null })],
    returns: nothing(),
    description: "Clear the failure count of the client's autodebit account (as setDebitAccountFailure picks it), so it is debited again.",
  })
  async resetDebitAccountFailure(clientId: number, type: string | null, accountId: number | null) {
    if (await this.matchingDebitAccount(clientId, type, accountId)) await this.ctx.db.updateTable('client_autodebit').set({ failures: 0 }).where('client_id', '=', clientId).execute();
    return null;
  }

  private async matchingDebitAccount(clientId: number, type: string | null, accountId: number | null): Promise<boolean> {
    await requireClientId(this.ctx.db, this.ctx.companyId, clientId);
    if (type !== null && !TYPES.includes(type as never)) throw TallyError.invalid({ type: { format: 'The account type must be cc or ach.' } });
    const row = await this.debitAccount(clientId);
    return !!row && (type === null || row.type === type) && (accountId === null || row.account_id === accountId);
  }

  /** The client's autodebit choice with its account's kind, for a client of the caller's company only. */
  private debitAccount(clientId: number) {
    return this.ctx.db
      .selectFrom('client_autodebit')
      .innerJoin('clients', 'clients.id', 'client_autodebit.client_id')
      .innerJoin('accounts', 'accounts.id', 'client_autodebit.account_id')
      .select(['client_autodebit.account_id', 'client_autodebit.failures', 'accounts.type'])
      .where('clients.company_id', '=', this.ctx.companyId)
      .where('client_autodebit.client_id', '=', clientId)
      .executeTakeFirst();
  }
}
