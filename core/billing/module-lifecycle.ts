import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { TallyError } from '../kernel/tally-error';
import { readFields, ServiceRow } from './service-store';
import { fieldValue, writeFields } from './service-fields';

/** The lifecycle hooks a module extension offers on its `<module>.services` model. */
export type ModuleAction = 'provision' | 'suspend' | 'unsuspend' | 'cancel' | 'renew' | 'changePackage';

/** The service field holding the module's own id for the service (what provision answered). */
export const MODULE_SERVICE_ID = 'module_service_id';

/**
 * Calls the package's module for a service's lifecycle, through the one call path and in the
 * caller's transaction, so a module failure rolls the whole action back and the service is left
 * unchanged. The module's own 400 is answered as it is; anything else it throws becomes a 400
 * naming the module and what it could not do, without what it threw.
 */
export class ModuleLifecycle {
  constructor(
    private readonly ctx: CallContext,
    private readonly calls: ModelCalls,
  ) {}

  /** Provisions a service; stores what the module answers (its id, usernames; secrets encrypted). */
  async provision(service: ServiceRow): Promise<void> {
    if (!service.module) return;
    const fields = (await readFields(this.ctx.db, [service.id], this.ctx.systemKey)).get(service.id) ?? [];
    const vars = { ...JSON.parse(service.module_settings), ...Object.fromEntries(fields.map((f) => [f.key, f.value])), client_id: service.client_id };
    const answer = await this.invoke(service.module, 'provision', { vars });
    if (answer && typeof answer === 'object') {
      const { service_id: moduleId, ...rest } = answer as Record<string, unknown>;
      await writeFields(this.ctx.db, service.id, { ...rest, ...(moduleId !== undefined ? { [MODULE_SERVICE_ID]: moduleId } : {}) }, this.ctx.systemKey);
    }
  }

  /** suspend, unsuspend, cancel, renew: the module acts on the service it provisioned. */
  async act(service: ServiceRow, action: Exclude<ModuleAction, 'provision' | 'changePackage'>): Promise<void> {
    const moduleId = await this.moduleServiceId(service);
    if (moduleId === null) return;
    await this.invoke(service.module!, action, { service_id: moduleId });
  }

  /** Tells the module the service moved to another package (with that package's module settings). */
  async changePackage(service: ServiceRow, newModuleSettings: string): Promise<void> {
    const moduleId = await this.moduleServiceId(service);
    if (moduleId === null) return;
    await this.invoke(service.module!, 'changePackage', { service_id: moduleId, vars: JSON.parse(newModuleSettings) });
  }

  private async moduleServiceId(service: ServiceRow): Promise<number | null> {
    if (!service.module) return null;
    const value = await fieldValue(this.ctx.db, service.id, MODULE_SERVICE_ID);
    return value === null ? null : Number(value);
  }

  private async invoke(module: string, action: ModuleAction, params: Record<string, unknown>): Promise<unknown> {
    const model = `${module}.services`;
    if (!(await this.calls.available(this.ctx, model))) {
      throw TallyError.invalid({ module: { unavailable: `The package's module "${module}" is not installed and enabled for this company.` } });
    }
    try {
      return await this.calls.call(this.ctx, model, action, params);
    } catch (error) {
      if (error instanceof TallyError && error.status === 400) throw error;
      // Not the module's own message but whatever it threw (with its stack): an HTTP client's
      // error quoting a URL with the server's password in it, say. The host logs it; the answer
      // only says what could not be done.
      throw TallyError.invalid({ module: { failed: `The module "${module}" could not ${action === 'changePackage' ? 'change the package of' : action} the service (the host's log says why).` } });
    }
  }
}
