import { actsForInstallation, Caller } from '../../core/identity/credentials';
import { Tx } from '../../core/db/schema';
import { Installation } from '../../core/installation';
import { resolveModelMethod } from '../../core/kernel/model-container';
import { Shape } from '../../core/kernel/shape';
import { TallyError } from '../../core/kernel/tally-error';
import { AuditEntry } from '../../core/trust/audit-log';
import { CallGuard } from '../../core/trust/call-guard';
import { trustDb } from '../../core/identity/trust-tables';
import { GivenCredentials } from './credentials-from-headers';
import { defaultFormat, Format } from './formats';
import { guardedCall, outcomeOf } from './guarded-run';
import { parseRoute, Route, RouteError } from './route';

export const VERBS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** One API call, whatever carried it (HTTP or the command line). */
export interface ApiCall {
  readonly verb: string;
  readonly path: string;
  readonly credentials: GivenCredentials | null;
  /** The parameters the verb allows (query for GET/DELETE, body for POST/PUT); throws a TallyError on bad input. */
  params(): Promise<Record<string, unknown>>;
  /** Over HTTP or from the command line's API form. */
  readonly via: 'http' | 'cli';
  /** The client's address (for lock-outs, allow lists, the audit log); absent on the command line. */
  readonly address?: string;
  readonly requestId?: string;
  /** The `Idempotency-Key` header of a write. */
  readonly idempotencyKey?: string;
  /** A browser request from another site (refused: it could carry remembered Basic credentials). */
  readonly crossSite?: boolean;
}

export interface ApiAnswer {
  readonly status: number;
  readonly format: Format;
  /** The document root for formats that need one: the model name. */
  readonly root: string;
  readonly body: Record<string, unknown>;
  /** What the method declares it answers, for a format that needs it (see Format.needsShape). */
  readonly shape?: Shape;
  readonly route?: Route;
  readonly caller?: Caller;
  /** The cause of a 500, for the log; never shown to the client. */
  readonly failure?: unknown;
  /** Headers the answer needs (Retry-After, Idempotent-Replayed). */
  readonly headers?: Record<string, string>;
}

interface Progress {
  route?: Route;
  caller?: Caller;
  /** Set once the call entered the one call path (everything before it is the transport's). */
  called?: boolean;
  params: Record<string, unknown>;
  /** Its audit row was written in the call's transaction (meaningful once the call succeeded: it committed). */
  auditedInCall?: boolean;
}

/**
 * Answers a call in the contract's order: URL (404/415) → verb (405) → cross-site (403) →
 * lock-out (429) → credentials (401) → rate (429) → maintenance (503; not for installation
 * credentials, which must be able to end it) → the one call path: model and method (404/403),
 * authorisers (the credential's scope: 403), parameters (400), Idempotency-Key (409, or the
 * stored answer), the call (400/500) → 200. Every call of a method not declared GET is audited,
 * whatever its answer: a successful one in its own transaction (the row commits with the write,
 * and the write costs one commit, not two), any other once it has been answered.
 */
export async function dispatch(installation: Installation, call: ApiCall): Promise<ApiAnswer> {
  const guard = CallGuard.of(installation);
  const progress: Progress = { params: {} };
  const answer = await answerCall(guard, installation, call, progress);
  const entry = auditEntry(installation, call, progress, answer.status);
  if (!entry) return answer;
  const committed = progress.auditedInCall && answer.status === 200;
  // The answer stands whether or not its audit row could be written; the failure is logged.
  const write = committed ? guard.audit.sweepIfDue() : guard.audit.record(entry);
  const failed = await write.then(() => undefined, (error: unknown) => error);
  return failed && !answer.failure ? { ...answer, failure: failed } : answer;
}

/** The audit row of a call that entered the call path with a method not declared GET; null for any other. */
function auditEntry(installation: Installation, call: ApiCall, progress: Progress, status: number): AuditEntry | null {
  const { route, caller } = progress;
  if (!progress.called || !route || !caller) return null;
  const resolution = resolveModelMethod(installation.container, route.model, route.method);
  if (!resolution.found || resolution.spec.verb === 'GET') return null;
  return {
    companyId: caller.companyId,
    actor: caller.user,
    credentialId: caller.grant?.credentialId,
    model: resolution.entry.name,
    method: resolution.spec.method,
    verb: call.verb,
    status,
    requestId: call.requestId ?? '',
    address: call.address ?? 'local',
    params: progress.params,
  };
}

/**
 * Writes a succeeding call's audit row in its transaction, as its last statement. Should that
 * insert fail, the row is left to `dispatch` to write after the answer, as for a failed call.
 */
function auditBeforeCommit(guard: CallGuard, installation: Installation, call: ApiCall, progress: Progress) {
  return async (db: Tx): Promise<void> => {
    progress.auditedInCall = false;
    const entry = auditEntry(installation, call, progress, 200);
    if (!entry) return;
    await guard.audit.record(entry, Date.now(), trustDb(db)).then(
      () => (progress.auditedInCall = true),
      () => undefined,
    );
  };
}

function declaredAnswer(installation: Installation, route: Route): Shape | undefined {
  const resolution = resolveModelMethod(installation.container, route.model, route.method);
  return resolution.found ? resolution.spec.returns : undefined;
}

async function answerCall(guard: CallGuard, installation: Installation, call: ApiCall, progress: Progress): Promise<ApiAnswer> {
  try {
    const route = (progress.route = parseRoute(call.path));
    if (!(VERBS as readonly string[]).includes(call.verb)) throw new TallyError('method_not_allowed');
    if (call.crossSite) throw new TallyError('forbidden');
    const caller = (progress.caller = await guard.authenticate(call.credentials, call.address));
    await guard.throttle(caller);
    if (!actsForInstallation(caller) && (await installation.inMaintenance())) throw new TallyError('maintenance');
    progress.called = true;
    const ran = await guardedCall(guard, installation, route, call, caller, progress, auditBeforeCommit(guard, installation, call, progress));
    const shape = ran.status === 200 && route.format.needsShape ? declaredAnswer(installation, route) : undefined;
    return { format: route.format, root: route.model, route, caller, ...ran, ...(shape ? { shape } : {}) };
  } catch (thrown) {
    const format = thrown instanceof RouteError ? thrown.format : progress.route?.format ?? defaultFormat;
    return { format, root: progress.route?.model ?? 'api', route: progress.route, caller: progress.caller, ...outcomeOf(thrown) };
  }
}
