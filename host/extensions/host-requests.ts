import { CompiledQuery } from 'kysely';
import { DependencyContainer } from 'tsyringe';
import { Installation } from '../../core/installation';
import { bindArguments } from '../../core/kernel/bind-arguments';
import { CallContext } from '../../core/kernel/call-context';
import { TallyError } from '../../core/kernel/tally-error';
import { isPlainObject } from '../../core/kernel/bind-arguments';
import { ExtensionInfo } from '../../core/models/extension-managers/catalog';
import { decodeSettings } from '../../core/models/extension-managers/settings-codec';
import { CallInfo, HostRequest } from './protocol';

/** The worker's view of a call: who calls; the rest stays on the host and is asked for. */
export function callInfo(ctx: CallContext): CallInfo {
  return { companyId: ctx.companyId, timezone: ctx.timezone, caller: ctx.caller };
}

/**
 * Answers what an extension's worker asks during one call, on the host and inside the call: its
 * queries run on the call's transaction, its model calls go through the same checks as the API
 * (404, 403, 400) in the same transaction, and its settings are read for the caller's company.
 */
export function serveRequests(installation: Installation, extension: ExtensionInfo, ctx: CallContext, scope: DependencyContainer) {
  return async (request: HostRequest): Promise<unknown> => {
    if (request.kind === 'query') {
      return ctx.db.executeQuery(CompiledQuery.raw(request.sql, request.parameters));
    }
    if (request.kind === 'settings') {
      const row = await ctx.db
        .selectFrom('extensions_installed')
        .select('settings')
        .where('company_id', '=', ctx.companyId)
        .where('type', '=', extension.type)
        .where('name', '=', extension.name)
        .executeTakeFirst();
      return row ? decodeSettings(row.settings, extension.settings, ctx.systemKey) : {};
    }
    return callModel(installation, request.model, request.method, request.params, scope, ctx);
  };
}

async function callModel(installation: Installation, model: string, method: string, params: unknown, scope: DependencyContainer, ctx: CallContext) {
  const resolution = installation.registry.resolve(model, method);
  if (!resolution.found) throw new TallyError(resolution.reason === 'not-callable' ? 'forbidden' : 'not_found');
  const { entry, spec } = resolution;
  if (entry.availableTo && !(await entry.availableTo(ctx.companyId, scope))) throw new TallyError('forbidden');
  const args = bindArguments(spec, isPlainObject(params) ? params : {});
  return entry.invoke(method, args, scope);
}
