import { randomUUID } from 'node:crypto';
import { Installation } from '../../core/installation';
import { TallyError } from '../../core/kernel/tally-error';
import { CallGuard } from '../../core/trust/call-guard';
import { localCaller } from './open-installation';

/**
 * A write made by an administrative command, as the server's own caller for `companyId`, and its
 * audit row (actor `cli`, parameter names only), written whether the call succeeded or not.
 */
export async function auditedCall(installation: Installation, model: string, method: string, params: Record<string, unknown>, companyId: number): Promise<unknown> {
  let status = 200;
  try {
    return await installation.call(model, method, params, localCaller(companyId));
  } catch (error) {
    status = error instanceof TallyError ? error.status : 500;
    throw error;
  } finally {
    await CallGuard.of(installation).audit.record({ companyId, actor: 'cli', model, method, verb: 'CLI', status, requestId: randomUUID(), address: 'local', params });
  }
}
