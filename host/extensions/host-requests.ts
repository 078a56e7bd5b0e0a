import { CompiledQuery } from 'kysely';
import { Installation } from '../../core/installation';
import { CallContext } from '../../core/kernel/call-context';
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
export function serveRequests(installation: Installation, extension: ExtensionInfo, ctx: CallContext) {
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
    return callModel(installation, extension, request.model, request.method, request.params, ctx);
  };
}

/** A core (or another extension's) method called from inside an extension: the one call path, as the calling company, in this call's transaction. */
function callModel(installation: Installation, extension: ExtensionInfo, model: string, method: string, params: unknown, ctx: CallContext) {
  return installation.call(model, method, isPlainObject(params) ? params : {}, ctx.origin, { via: 'extension', within: { db: ctx.db, extension: extension.name } });
}
