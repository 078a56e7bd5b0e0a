import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { ExtensionCatalog } from '../../kernel/extension-catalog';
import { facet } from '../../kernel/model';
import { ModelCalls } from '../../kernel/model-calls';
import { any, int, string } from '../../kernel/parameter';
import { TallyError } from '../../kernel/tally-error';
import { callModule } from '../../billing/module-lifecycle';
import { ModuleRowStore } from '../../billing/module-row-store';
import { requireModule } from './installed-module';
import { invalidRow } from './module-rows';

/**
 * The reference's moduleRpc: a method of the company's installed module, called through the one
 * call path (the sandbox, the caller's checks) as the caller. Tally's modules answer through their
 * models, so `method` names one as `<model>.<method>` (`servers.getList`), and `params` are named
 * as that method declares them. With module_row_id, the row (every field in clear) is handed to
 * the method as its `module_row` parameter.
 */
@facet('module_manager')
export class ModuleRpc {
  constructor(
    private readonly ctx: CallContext,
    private readonly catalog: ExtensionCatalog,
    private readonly calls: ModelCalls,
  ) {}

  @callable({
    verb: 'POST',
    params: [int('module_id'), string('method'), any('params', { default: null }), int('module_row_id', { default: null })],
    description:
      "Call a method of the company's module: method is <model>.<method> of its models (module_manager/get lists them), params its named parameters (params[domain]=...), module_row_id a row of the module handed to the method as its module_row parameter. Answers what the method answers; the module's 400 is answered as it is.",
  })
  async moduleRpc(moduleId: number, method: string, params: unknown, moduleRowId: number | null) {
    const { record, info } = await requireModule(this.ctx, this.catalog, moduleId);
    const [model, name, ...rest] = method.split(/[./]/);
    const declared = model && name && !rest.length && info?.models.includes(`${record.name}.${model}`) ? this.calls.parameterNames(`${record.name}.${model}`, name) : undefined;
    if (!declared) {
      const models = info?.models.join(', ') || 'none';
      throw TallyError.invalid({ method: { exists: `The module "${record.name}" has no callable method "${method}"; name one as <model>.<method> of its models (${models}).` } });
    }
    if (params !== null && params !== '' && (typeof params !== 'object' || Array.isArray(params))) {
      throw TallyError.invalid({ params: { format: 'Send the parameters by name: params[name]=value.' } });
    }
    const named: Record<string, unknown> = { ...((params || {}) as Record<string, unknown>) };
    if (moduleRowId !== null) {
      const store = new ModuleRowStore(this.ctx.db, this.ctx.companyId, this.ctx.systemKey);
      const row = await store.row(moduleRowId);
      if (!row || row.module_id !== moduleId) throw invalidRow();
      if (!declared.includes('module_row')) throw TallyError.invalid({ module_row_id: { unused: `The method "${method}" takes no module_row parameter.` } });
      named.module_row = { id: row.id, meta: store.decoded(row) };
    }
    return callModule(this.ctx, this.calls, record.name, model, name, named, `answer ${method}`);
  }
}
