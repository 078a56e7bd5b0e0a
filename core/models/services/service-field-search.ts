import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { int, string } from '../../kernel/parameter';
import { presentServices, serviceQuery } from '../../billing/service-store';
import { SERVICES } from '../services.fields';
import { findInstalledModule } from '../../billing/module-row-store';

/** The reference's searchServiceFields: a module's services by one of their service fields (a domain, a username). */
@facet('services')
export class ServiceFieldSearch {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    verb: 'GET',
    params: [int('module_id'), string('key'), string('value')],
    returns: SERVICES,
    description:
      "The company's services of the module (on one of its rows, or of a package it provisions) with the service field key set to exactly value; fields stored encrypted are not searched. Another company's module has none.",
  })
  async searchServiceFields(moduleId: number, key: string, value: string) {
    const module = await findInstalledModule(this.ctx.db, this.ctx.companyId, moduleId);
    if (!module) return [];
    const rows = await serviceQuery(this.ctx.db, this.ctx.companyId)
      .where((eb) =>
        eb.or([
          eb('packages.module', '=', module.name),
          eb('services.module_row_id', 'in', eb.selectFrom('module_rows').select('id').where('company_id', '=', this.ctx.companyId).where('module_id', '=', moduleId)),
        ]),
      )
      .where('services.id', 'in', (eb) => eb.selectFrom('service_fields').select('service_id').where('key', '=', key).where('value', '=', value).where('encrypted', '=', 0))
      .orderBy('services.id')
      .execute();
    return presentServices(this.ctx.db, rows, this.ctx.systemKey);
  }
}
