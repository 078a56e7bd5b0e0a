import { randomUUID } from 'node:crypto';
import { Installation } from '../../core/installation';
import { localCaller } from './open-installation';

/**
 * A write made by an administrative command, as the server's own caller for `companyId`. It is a
 * call from the command line (`via: 'cli'`), so the call path's audit hook records it (actor
 * `cli`, verb `CLI`, parameter names only) whether it succeeded or not.
 */
export function auditedCall(installation: Installation, model: string, method: string, params: Record<string, unknown>, companyId: number): Promise<unknown> {
  return installation.call(model, method, params, localCaller(companyId), { via: 'cli', verb: 'CLI', requestId: randomUUID() });
}
