import { config } from '../../core/config';
import { Installation } from '../../core/installation';
import { CallContext } from '../../core/kernel/call-context';
import { ModelEntry } from '../../core/kernel/model-entry';
import { inSession } from './capabilities/extension-session';
import { openSession } from './capabilities/open-session';
import { sessionDatabase } from './capabilities/session-database';

const MANAGERS = new Set(['plugin_manager', 'module_manager', 'gateway_manager']);

/**
 * The managers run extensions' migrations and install/uninstall hooks, which are extension code:
 * a slow or hanging hook must not hold the database any more than an extension call may. So the
 * managers' methods run outside any transaction too, with `ctx.db` going through a session (the
 * SQLite journal, or a bounded PostgreSQL transaction): the manager's rows, the migrations and the
 * hook are committed together when the method succeeds, and nothing is kept when it fails.
 *
 * The composition root registers the managers this way when it loads extensions (a model is
 * registered once, as it will be called; none is swapped afterwards).
 */
export function managersOutsideTransactions(deadlineMs: number): (entry: ModelEntry, installation: Installation) => ModelEntry {
  return (entry, installation) => (MANAGERS.has(entry.name) && !entry.ownsTransactions ? sessioned(installation, entry, deadlineMs) : entry);
}

function sessioned(installation: Installation, entry: ModelEntry, deadlineMs: number): ModelEntry {
  const dialect = installation.connection.dialect;
  return {
    name: entry.name,
    callables: entry.callables,
    members: entry.members,
    availableTo: entry.availableTo?.bind(entry),
    ownsTransactions: true,
    async invoke(method, args, scope) {
      const outer = scope.resolve(CallContext);
      return inSession(
        () => openSession(installation.db, { dialect, readOnly: false, writers: 'extension managers', poolSize: config().databasePool, statementTimeoutMs: deadlineMs }),
        (session) => {
          const ctx = new CallContext(sessionDatabase(session, dialect), outer.companyId, outer.timezone, outer.systemKey, outer.caller, outer.origin, outer.afterCommit);
          return entry.invoke(method, args, installation.scope(ctx));
        },
      );
    },
  };
}
