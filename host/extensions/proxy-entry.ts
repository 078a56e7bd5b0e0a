import { config } from '../../core/config';
import { Db } from '../../core/db/schema';
import { CallContext } from '../../core/kernel/call-context';
import type { CallScope } from '../../core/kernel/call-scope';
import { ModelEntry } from '../../core/kernel/model-entry';
import { ExtensionInfo } from '../../core/kernel/extension-catalog';
import { DirectSession } from './capabilities/direct-session';
import { ExtensionSession, inSession, joined } from './capabilities/extension-session';
import { openSession } from './capabilities/open-session';
import { sessionOf } from './capabilities/session-database';
import { callInfo } from './host-requests';
import { HostRequest, ModelDescriptor } from './protocol';
import { ExtensionSandbox } from './sandbox/extension-sandbox';

export interface ProxyWiring {
  readonly sandbox: ExtensionSandbox;
  readonly dialect: 'sqlite' | 'postgres';
  /** The per-call deadline: no statement of the call may run longer (PostgreSQL's statement_timeout). */
  readonly deadlineMs: number;
  /** Whether the company has the extension installed and enabled. */
  enabledFor(companyId: number, scope: CallScope): Promise<boolean>;
  /** How the host answers the sandbox's requests during this call. */
  serve(ctx: CallContext, session: ExtensionSession): (request: Exclude<HostRequest, { kind: 'log' }>) => Promise<unknown>;
}

/**
 * `<extension>.<model>` in the host's registry: the declared callables bound and checked on the
 * host as for a core model, then the call forwarded into the extension's sandbox. It runs outside
 * any transaction (`ownsTransactions`): its session makes its database work atomic without
 * holding a connection while the extension computes, and commits only when the call succeeds.
 */
export function proxyEntry(extension: ExtensionInfo, descriptor: ModelDescriptor, wiring: ProxyWiring): ModelEntry {
  const callables = new Map(descriptor.callables.map((spec) => [spec.method, spec]));
  return {
    name: `${extension.name}.${descriptor.model}`,
    callables,
    members: new Set(descriptor.members),
    availableTo: (companyId, scope) => wiring.enabledFor(companyId, scope),
    ownsTransactions: true,
    async invoke(method, args, scope) {
      const ctx = scope.resolve(CallContext);
      const readOnly = callables.get(method)?.verb === 'GET';
      return inSession(
        () => sessionFor(ctx, wiring, readOnly, extension.name),
        (session) => wiring.sandbox.run({ kind: 'call', model: descriptor.model, method, args }, callInfo(ctx), wiring.serve(ctx, session)),
      );
    },
  };
}

/**
 * Called by an extension: in that call's session (which the outermost call ends), or in the
 * transaction running its migrations and hooks. Called by the API: a session of its own.
 */
function sessionFor(ctx: CallContext, wiring: ProxyWiring, readOnly: boolean, writers: string): ExtensionSession {
  const outer = sessionOf(ctx.db);
  if (outer) return joined(outer);
  if (ctx.db.isTransaction) return new DirectSession(ctx.db as never);
  return openSession(ctx.db as Db, { dialect: wiring.dialect, readOnly, writers, poolSize: config().databasePool, statementTimeoutMs: wiring.deadlineMs });
}
