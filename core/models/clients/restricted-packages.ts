import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { any, int } from '../../kernel/parameter';
import { int as count, listOf, nothing, record } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { requireClientId } from '../../billing/client-store';
import { wholeNumber } from '../../billing/values';

/** The reference's message when a package id given is none of the company's. */
const PACKAGES_EXIST = 'At least one of the packages provided does not exist.';

/**
 * Which restricted packages a client may order (a package of status `restricted` is offered only
 * to the clients granted it; services/add refuses it to the others with client_id.allowed). A facet
 * of the clients model (clients.ts lists it), so these are `clients/...` methods; another company's
 * client or package is as absent as a missing one.
 */
@facet('clients')
export class ClientRestrictedPackages {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: 'The restricted packages a client has access to, as {package_id} rows.',
    verb: 'GET',
    params: [int('client_id')],
    returns: listOf(record({ package_id: count() })),
  })
  async getRestrictedPackages(clientId: number) {
    await requireClientId(this.ctx.db, this.ctx.companyId, clientId);
    return this.ctx.db.selectFrom('client_packages').select('package_id').where('client_id', '=', clientId).orderBy('package_id').execute();
  }

  @callable({
    description: "Set the restricted packages a client has access to: package_ids[] (packages of the client's company) replace those it had; an empty list removes them all.",
    verb: 'POST',
    params: [int('client_id'), any('package_ids', { default: [] })],
    returns: nothing(),
  })
  async setRestrictedPackages(clientId: number, packageIds: unknown) {
    await requireClientId(this.ctx.db, this.ctx.companyId, clientId);
    const given =
      packageIds === '' || packageIds === null || packageIds === undefined ? [] : Array.isArray(packageIds) ? packageIds : typeof packageIds === 'object' ? Object.values(packageIds) : [packageIds];
    const ids = [...new Set(given.map((v) => wholeNumber(v)))];
    if (ids.some((id) => id === null)) throw TallyError.invalid({ package_ids: { exists: PACKAGES_EXIST } });
    const wanted = ids as number[];
    if (wanted.length) {
      const found = await this.ctx.db.selectFrom('packages').select('id').where('company_id', '=', this.ctx.companyId).where('id', 'in', wanted).execute();
      if (found.length !== wanted.length) throw TallyError.invalid({ package_ids: { exists: PACKAGES_EXIST } });
    }
    await this.ctx.db.deleteFrom('client_packages').where('client_id', '=', clientId).execute();
    if (wanted.length)
      await this.ctx.db
        .insertInto('client_packages')
        .values(wanted.map((packageId) => ({ client_id: clientId, package_id: packageId })))
        .execute();
    return null;
  }

  @callable({ description: 'Remove every restricted package access of a client.', verb: 'DELETE', params: [int('client_id')], returns: nothing() })
  async deleteRestrictedPackages(clientId: number) {
    await requireClientId(this.ctx.db, this.ctx.companyId, clientId);
    await this.ctx.db.deleteFrom('client_packages').where('client_id', '=', clientId).execute();
    return null;
  }
}
