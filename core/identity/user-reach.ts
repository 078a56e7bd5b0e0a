import { Expression, sql, SqlBool } from 'kysely';
import { CallContext } from '../kernel/call-context';

/**
 * Which log-in identities a company credential reaches: never a staff member's (staff sign in to
 * the admin area, so reaching one would be an installation takeover); never one linked to another
 * company's client or contact; and of the rest, those linked to a client or contact (which can only
 * be the company's own) or created by its credentials. Linking someone else's user to a client of one's own
 * therefore grants nothing: the other company's link still excludes it.
 */
export function reachableBy(companyId: number): Expression<SqlBool> {
  // Raw SQL rather than the query builder: this runs on every users/* call of a company
  // credential, and building the same subqueries as expression trees cost more than the query.
  const condition = sql<SqlBool>`(
    not exists (select 1 from staff where staff.user_id = users.id)
    and not exists (select 1 from clients where clients.user_id = users.id and clients.company_id <> ${companyId})
    and not exists (select 1 from contacts inner join clients as contact_clients on contact_clients.id = contacts.client_id
                    where contacts.user_id = users.id and contact_clients.company_id <> ${companyId})
    and (users.company_id = ${companyId}
         or exists (select 1 from clients where clients.user_id = users.id)
         or exists (select 1 from contacts where contacts.user_id = users.id)))`;
  return condition;
}

/** The filter for a call: none for the installation, `reachableBy` for a company credential. */
export function usersFilter(ctx: CallContext) {
  // Built on first use: a users model is made for every users/* call, and most use their own query.
  let filter: Expression<SqlBool> | undefined;
  return <Q extends { where(f: Expression<SqlBool>): Q }>(query: Q): Q => (ctx.installationWide ? query : query.where((filter ??= reachableBy(ctx.companyId))));
}
