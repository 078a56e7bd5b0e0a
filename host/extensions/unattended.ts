import { config } from '../../core/config';
import { CompanyScope } from '../../core/automation/company-scope';
import { Installation } from '../../core/installation';
import { CallContext } from '../../core/kernel/call-context';
import { ExtensionInfo } from '../../core/kernel/extension-catalog';
import { inSession } from './capabilities/extension-session';
import { openSession } from './capabilities/open-session';
import { callInfo, serveRequests } from './host-requests';
import { Task } from './protocol';
import { ExtensionSandbox } from './sandbox/extension-sandbox';
import { SandboxLimits } from './sandbox-limits';

/**
 * Runs extension code nobody called: an event handler or a scheduled task. It runs as one company
 * (the event's, the task's), with the extension's own capabilities and nothing more, as `caller`
 * ('events', 'automation'), in a session of its own: its writes are kept when it succeeds, and
 * nothing is kept when it throws, blows its deadline or memory limit (the caller retries).
 */
export async function runUnattended(
  installation: Installation,
  extension: ExtensionInfo,
  sandbox: ExtensionSandbox,
  limits: SandboxLimits,
  companyId: number,
  task: Task,
  caller: string,
): Promise<void> {
  const scope = await CompanyScope.open(installation, companyId);
  const base = scope.context(installation.db);
  const ctx = new CallContext(installation.db, companyId, base.timezone, base.systemKey, caller);
  const dialect = installation.connection.dialect;
  await inSession(
    () => openSession(installation.db, { dialect, readOnly: false, writers: extension.name, poolSize: config().databasePool, statementTimeoutMs: limits.deadlineMs }),
    (session) => sandbox.run(task, callInfo(ctx), serveRequests(installation, extension, ctx, session, limits)),
  );
}
