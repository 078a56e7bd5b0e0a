import { ExpressionBuilder, SqlBool, Expression } from 'kysely';
import { CallContext } from '../kernel/call-context';
import { TrustDatabase } from './trust-tables';

type Eb = ExpressionBuilder<TrustDatabase, 'users'>;

/**
 * Which log-in identities a company credential reaches: never a staff member's (staff sign in to
 * the admin area, so reaching one would be an installation takeover); never one linked to another
 * company's client or contact; and of the rest, those linked to the company's own clients and
 * contacts or created by its credentials. Linking someone else's user to a client of one's own
 * therefore grants nothing: the other company's link still excludes it.
 */
export function reachableBy(companyId: number) {
  return (eb: Eb): Expression<SqlBool> => {
    const clientLink = () => eb.selectFrom('clients').select('clients.id').whereRef('clients.user_id', '=', 'users.id');
    const contactLink = () =>
      eb.selectFrom('contacts').innerJoin('clients as contact_clients', 'contact_clients.id', 'contacts.client_id').select('contacts.id').whereRef('contacts.user_id', '=', 'users.id');
    return eb.and([
      eb.not(eb.exists(eb.selectFrom('staff').select('staff.id').whereRef('staff.user_id', '=', 'users.id'))),
      eb.not(eb.exists(clientLink().where('clients.company_id', '!=', companyId))),
      eb.not(eb.exists(contactLink().where('contact_clients.company_id', '!=', companyId))),
      eb.or([
        eb('users.company_id', '=', companyId),
        eb.exists(clientLink().where('clients.company_id', '=', companyId)),
        eb.exists(contactLink().where('contact_clients.company_id', '=', companyId)),
      ]),
    ]);
  };
}

/** The filter for a call: none for the installation, `reachableBy` for a company credential. */
export function usersFilter(ctx: CallContext) {
  const filter = reachableBy(ctx.companyId);
  return <Q extends { where(f: (eb: Eb) => Expression<SqlBool>): Q }>(query: Q): Q => (ctx.installationWide ? query : query.where(filter));
}
