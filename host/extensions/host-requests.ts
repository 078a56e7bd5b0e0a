import { RootOperationNode } from 'kysely';
import { Caller } from '../../core/identity/credentials';
import { Installation } from '../../core/installation';
import { UNSCOPED } from '../../core/kernel/caller';
import { isPlainObject } from '../../core/kernel/bind-arguments';
import { CallContext } from '../../core/kernel/call-context';
import { ExtensionInfo } from '../../core/kernel/extension-catalog';
import { ExtensionSession } from './capabilities/extension-session';
import { outboundHttp } from './capabilities/http';
import { ownSettings } from './capabilities/own-settings';
import { guardQuery } from './capabilities/query-guard';
import { boundRows, runBounded } from './capabilities/row-bound';
import { sessionDatabase } from './capabilities/session-database';
import { CallInfo, HostRequest } from './protocol';
import { SandboxLimits } from './sandbox-limits';

/** The sandbox's view of a call: who calls; the rest stays on the host and is asked for. */
export function callInfo(ctx: CallContext): CallInfo {
  return { companyId: ctx.companyId, timezone: ctx.timezone, caller: ctx.caller };
}

/**
 * Answers what an extension's sandbox asks during one call, on the host, each through its
 * capability: queries checked and scoped to the caller's company (query-guard.ts), selects bounded
 * in rows (row-bound.ts), methods the
 * manifest `uses` through the one call path (which checks them against the manifest), its own
 * settings, HTTP to declared hosts. All database work goes through the call's session (atomic,
 * holding no connection while the extension computes). `schema` is true only while its
 * migrations run.
 */
export function serveRequests(installation: Installation, extension: ExtensionInfo, ctx: CallContext, session: ExtensionSession, limits: SandboxLimits, schema = false) {
  const tables = new Set(extension.capabilities.tables.map((t) => t.toLowerCase()));
  const db = sessionDatabase(session, installation.connection.dialect);
  const statementMs = installation.connection.dialect === 'sqlite' ? limits.statementMs : undefined;
  return async (request: Exclude<HostRequest, { kind: 'log' }>): Promise<unknown> => {
    switch (request.kind) {
      case 'query': {
        const statement = boundRows(guardQuery(request.node, { tables, companyId: ctx.companyId, schema, statementMs }), limits.rowsPerQuery, installation.connection.dialect);
        const compiled = installation.db.getExecutor().compileQuery(statement.node as RootOperationNode, { queryId: `extension-${extension.name}` });
        return runBounded(session, statement, compiled, limits.rowsPerQuery);
      }
      case 'settings':
        return ownSettings(extension, db, ctx);
      case 'http':
        return outboundHttp(request, extension.capabilities.hosts, limits);
      case 'model':
        return callModel(installation, extension, request.model, request.method, request.params, ctx, db);
    }
  };
}

/**
 * A core (or another extension's) method called from inside an extension: the one call path, as
 * the calling company, within this call's session database. The call path checks it against the
 * manifest's `uses` (load-extensions.ts registers that check).
 */
function callModel(installation: Installation, extension: ExtensionInfo, model: string, method: string, params: unknown, ctx: CallContext, db: ReturnType<typeof sessionDatabase>) {
  return installation.call(model, method, isPlainObject(params) ? params : {}, asCompany(ctx.origin), { via: 'extension', within: { db, extension: extension.name, afterCommit: ctx.afterCommit } });
}

/**
 * An extension acts as the calling company and never more: whoever called it (an installation
 * credential, the admin area, the CLI), installation-wide powers stay with the host. A scoped
 * credential's scope still applies to what the extension calls in its name.
 */
function asCompany(origin: Caller): Caller {
  const grant = origin.grant ?? { credentialId: 0, installation: false, scope: UNSCOPED };
  return { ...origin, grant: { ...grant, installation: false } };
}
