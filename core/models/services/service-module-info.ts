import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { int } from '../../kernel/parameter';
import { listOf, mapOf, orFalse, string as text } from '../../kernel/shape';
import { findService } from '../../billing/service-store';
import { defaultTemplate } from '../../delivery/default-templates';
import { tagNames } from '../../delivery/email-group-store';
import { SERVICE_ACTIONS } from '../../delivery/service-email';

/** A package without a module: the reference's "none" module, which provisions nothing. */
const NO_MODULE = 'none';

/**
 * What kind of service a service is, by the module that provisions it, and the tags its welcome
 * email (service_creation, docs/delivery.md) is written with.
 */
@facet('services')
export class ServiceModuleInfo {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    verb: 'GET',
    params: [int('service_id')],
    returns: orFalse(text({ description: 'The module directory name (module_manager calls it class), or none.' })),
    description:
      "The module that provisions the company's service (its package's module: its directory name, as module_manager/getByClass takes it), or none when its package has no module; false when there is no such service.",
  })
  async getType(serviceId: number) {
    const service = await findService(this.ctx.db, this.ctx.companyId, serviceId);
    if (!service) return false as const;
    return service.module ?? NO_MODULE;
  }

  @callable({
    verb: 'GET',
    returns: mapOf(listOf(text())),
    description: 'The tags the welcome email (service_creation) is written with, by category: company, contact, client, service ({service.name} and the rest).',
  })
  getWelcomeEmailTags() {
    const sample = defaultTemplate(SERVICE_ACTIONS.creation)?.sample ?? {};
    const tags: Record<string, string[]> = {};
    for (const name of tagNames(sample)) {
      const [category, ...rest] = name.split('.');
      if (!rest.length) continue;
      (tags[category] ??= []).push(rest.join('.'));
    }
    return tags;
  }
}
