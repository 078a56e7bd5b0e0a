import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { TallyError } from '../kernel/tally-error';
import { readFields, ServiceRow } from './service-store';
import { fieldValue, writeFields } from './service-fields';
import { ModuleRowStore } from './module-row-store';
import { configOptionsOf } from './service-options';
import { markModuleFailure } from './module-failure';

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
    const vars = {
      ...JSON.parse(service.module_settings),
      ...Object.fromEntries(fields.map((f) => [f.key, f.value])),
      client_id: service.client_id,
      ...(await this.moduleRow(service)),
      ...(await this.configOptions(service)),
    };
    const answer = await this.invoke(service, 'provision', { vars });
    if (answer && typeof answer === 'object') {
      const { service_id: moduleId, ...rest } = answer as Record<string, unknown>;
      await writeFields(this.ctx.db, service.id, { ...rest, ...(moduleId !== undefined ? { [MODULE_SERVICE_ID]: moduleId } : {}) }, this.ctx.systemKey);
    }
  }

  /** suspend, unsuspend, cancel, renew: the module acts on the service it provisioned. */
  async act(service: ServiceRow, action: Exclude<ModuleAction, 'provision' | 'changePackage'>): Promise<void> {
    const moduleId = await this.moduleServiceId(service);
    if (moduleId === null) return;
    await this.invoke(service, action, { service_id: moduleId });
  }

  /** Tells the module the service moved to another package (with that package's module settings and the service's options). */
  async changePackage(service: ServiceRow, newModuleSettings: string): Promise<void> {
    const moduleId = await this.moduleServiceId(service);
    if (moduleId === null) return;
    await this.invoke(service, 'changePackage', { service_id: moduleId, vars: { ...JSON.parse(newModuleSettings), ...(await this.configOptions(service)) } });
  }

  /**
   * The service's package options as the reference hands them to modules, `configoptions` keyed by
   * option name (a quantity, a text or the value chosen); nothing when it has none.
   */
  private async configOptions(service: ServiceRow): Promise<{ configoptions?: Record<string, string> }> {
    const options = await configOptionsOf(this.ctx.db, service.id, 'name');
    return Object.keys(options).length ? { configoptions: options } : {};
  }

  /** The module row the service was added on, with every field in clear (the module connects with them): none when it names none. */
  private async moduleRow(service: ServiceRow): Promise<Record<string, unknown>> {
    if (service.module_row_id === null) return {};
    const store = new ModuleRowStore(this.ctx.db, this.ctx.companyId, this.ctx.systemKey);
    const row = await store.row(service.module_row_id);
    return row ? { module_row_id: row.id, module_row: { id: row.id, meta: store.decoded(row) } } : {};
  }

  private async moduleServiceId(service: ServiceRow): Promise<number | null> {
    if (!service.module) return null;
    const value = await fieldValue(this.ctx.db, service.id, MODULE_SERVICE_ID);
    return value === null ? null : Number(value);
  }

  /** Calls the module; its refusal is marked as the service's module failure, for the staff subscribed to module errors. */
  private async invoke(service: ServiceRow, action: ModuleAction, params: Record<string, unknown>): Promise<unknown> {
    const module = service.module!;
    try {
      return await callModule(
        this.ctx,
        this.calls,
        module,
        'services',
        action,
        params,
        action === 'changePackage' ? 'change the package of the service' : `${action} the service`,
        "The package's module",
      );
    } catch (error) {
      if (error instanceof TallyError) markModuleFailure(error, { companyId: this.ctx.companyId, service, module, action });
      throw error;
    }
  }
}

/**
 * Calls a method of a module's model through the one call path, in the caller's transaction. The
 * module's own 400 is answered as it is; anything else it throws becomes a 400 naming the module
 * and what it could not do (`what`), without what it threw.
 */
export async function callModule(
  ctx: CallContext,
  calls: ModelCalls,
  module: string,
  model: string,
  method: string,
  params: Record<string, unknown>,
  what: string,
  named = 'The module',
): Promise<unknown> {
  const name = `${module}.${model}`;
  if (!(await calls.available(ctx, name))) {
    throw TallyError.invalid({ module: { unavailable: `${named} "${module}" is not installed and enabled for this company.` } });
  }
  try {
    return await calls.call(ctx, name, method, params);
  } catch (error) {
    if (error instanceof TallyError && error.status === 400) throw error;
    // Not the module's own message but whatever it threw (with its stack): an HTTP client's
    // error quoting a URL with the server's password in it, say. The host logs it; the answer
    // only says what could not be done.
    throw TallyError.invalid({ module: { failed: `The module "${module}" could not ${what} (the host's log says why).` } });
  }
}
