import type { Call, CallOutcome } from '../call-record';
import type { Tx } from '../db/schema';
import { AuditEntry, AuditLog } from './audit-log';
import { trustDb } from '../identity/trust-tables';

/**
 * The one writer of the audit log. As call path hooks it records every write call made over the
 * API or from the command line (a method not declared GET), whatever its answer: a successful one
 * in its own transaction, as the last statement before commit (the row commits with the write,
 * and the write costs one commit, not two), any other once it has been answered. The admin area
 * records its page actions through `action`.
 */
export class CallAudit {
  /** Calls whose row was written before their commit (an insert that failed there is written once answered). */
  private readonly recordedInCall = new WeakSet<Call>();

  constructor(private readonly log: AuditLog) {}

  /** beforeCommit hook. */
  readonly beforeCommit = async (call: Call, db: Tx): Promise<void> => {
    if (!audited(call)) return;
    await this.log.record(entryOf(call, 200), Date.now(), trustDb(db)).then(
      () => this.recordedInCall.add(call),
      () => undefined,
    );
  };

  /** answered hook. The answer stands whether or not its row could be written; a failure goes to the log. */
  readonly answered = (call: Call, outcome: CallOutcome): Promise<void> | undefined => {
    if (!audited(call)) return undefined;
    if (outcome.status === 200 && this.recordedInCall.has(call)) return this.log.sweepIfDue();
    return this.log.record(entryOf(call, outcome.status));
  };

  /** An admin-area action (`admin/<page>`, the staff member as actor). */
  action(entry: AuditEntry): Promise<void> {
    return this.log.record(entry);
  }
}

/**
 * Writes made over the API (`http`), from the command line (`cli`: its API form and administrative
 * commands), by a client in the client area (`client`), by a gateway's notification (`callback`),
 * and by a staff member in the administrative area (`admin` with a staff id: the actor is
 * `staff:<username>`, refusals included).
 */
function audited(call: Call): boolean {
  const via = call.via;
  return (via === 'http' || via === 'cli' || via === 'client' || via === 'callback' || (via === 'admin' && call.caller.staffId !== undefined)) && call.spec.verb !== 'GET';
}

function entryOf(call: Call, status: number): AuditEntry {
  const { caller, request } = call;
  return {
    companyId: caller.companyId,
    actor: caller.user,
    credentialId: caller.grant?.credentialId,
    model: call.model,
    method: call.method,
    verb: request.verb ?? 'CLI',
    status,
    requestId: request.requestId ?? '',
    address: request.address ?? 'local',
    params: call.params,
  };
}
