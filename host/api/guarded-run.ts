import { Caller } from '../../core/credentials';
import { Installation, ResolvedCall } from '../../core/installation';
import { TallyError } from '../../core/kernel/tally-error';
import { CallGuard } from '../../core/trust/call-guard';
import { fingerprint, validIdempotencyKey } from '../../core/trust/idempotency';
import { RetryLater } from '../../core/trust/retry-later';

export interface RunOutcome {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly failure?: unknown;
  readonly headers?: Record<string, string>;
}

interface About {
  readonly verb: string;
  readonly path: string;
  readonly idempotencyKey?: string;
}

/**
 * Runs a resolved call; with an `Idempotency-Key` on a write, at most once per credential and key:
 * the first answer is stored and replayed (`Idempotent-Replayed: true`), the same key with other
 * parameters is a 409, as is a repeat while the first still runs. A 5xx or 429 is not stored (its
 * transaction rolled back, nothing happened), so retrying with the same key runs the call again.
 */
export async function guardedRun(guard: CallGuard, installation: Installation, call: ResolvedCall, params: Record<string, unknown>, about: About, caller: Caller): Promise<RunOutcome> {
  const key = about.idempotencyKey;
  if (key === undefined || about.verb === 'GET') return run(installation, call, params);
  if (!validIdempotencyKey(key)) {
    throw TallyError.invalid({ 'Idempotency-Key': { valid: 'The Idempotency-Key must be 1 to 255 visible ASCII characters.' } });
  }
  const begun = await guard.idempotency.begin(caller.user, key, fingerprint(about.verb, about.path, params));
  if (begun.kind === 'conflict') throw new TallyError('idempotency_conflict');
  if (begun.kind === 'in_progress') throw new TallyError('idempotency_in_progress');
  if (begun.kind === 'replay') return { status: begun.status, body: begun.body, headers: { 'Idempotent-Replayed': 'true' } };
  const outcome = await run(installation, call, params);
  if (outcome.status >= 500 || outcome.status === 429) await guard.idempotency.release(caller.user, key);
  else await guard.idempotency.finish(caller.user, key, outcome.status, outcome.body);
  return outcome;
}

async function run(installation: Installation, call: ResolvedCall, params: Record<string, unknown>): Promise<RunOutcome> {
  try {
    const response = await installation.run(call, params);
    return { status: 200, body: { response: response ?? null } };
  } catch (thrown) {
    const error = thrown instanceof TallyError ? thrown : new TallyError('internal');
    const headers = thrown instanceof RetryLater ? { 'Retry-After': String(thrown.retryAfterSeconds) } : undefined;
    return { status: error.status, body: error.body(), failure: thrown instanceof TallyError ? undefined : thrown, headers };
  }
}
