import { Caller } from '../../core/identity/credentials';
import { CallOptions, Installation } from '../../core/installation';
import { TallyError } from '../../core/kernel/tally-error';
import { CallGuard } from '../../core/trust/call-guard';
import { AnswerSeal, validIdempotencyKey } from '../../core/trust/idempotency';
import { RetryLater } from '../../core/identity/retry-later';
import type { ApiCall } from './dispatch';
import { Route } from './route';

export interface RunOutcome {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly failure?: unknown;
  readonly headers?: Record<string, string>;
}

/** Carries a stored answer out of the call path before anything runs. */
class Replay extends Error {
  constructor(readonly outcome: RunOutcome) {
    super('replay');
  }
}

/**
 * Runs a call through the one call path; with an `Idempotency-Key` on a write, at most once per
 * credential and key. The key is claimed once the parameters are read (after resolve and the
 * authorisers, before binding): the first answer is stored and replayed (`Idempotent-Replayed:
 * true`), the same key with other parameters is a 409, as is a repeat while the first still runs.
 * A 5xx or 429 is not stored (its transaction rolled back, nothing happened), so retrying with the
 * same key runs the call again.
 */
export async function guardedCall(
  guard: CallGuard,
  installation: Installation,
  route: Route,
  call: ApiCall,
  caller: Caller,
  seen: { params: Record<string, unknown>; auditedInCall?: boolean },
  beforeCommit?: CallOptions['beforeCommit'],
): Promise<RunOutcome> {
  const key = call.idempotencyKey;
  let claimed = false;
  let seal: AnswerSeal | undefined;
  const params = async () => {
    const given = (seen.params = await call.params());
    if (key === undefined || call.verb === 'GET') return given;
    if (!validIdempotencyKey(key)) {
      throw TallyError.invalid({ 'Idempotency-Key': { valid: 'The Idempotency-Key must be 1 to 255 visible ASCII characters.' } });
    }
    seal = new AnswerSeal(call.credentials?.key ?? '');
    const begun = await guard.idempotency.begin(caller.user, key, seal.fingerprint(call.verb, call.path, given), seal);
    if (begun.kind === 'conflict') throw new TallyError('idempotency_conflict');
    if (begun.kind === 'in_progress') throw new TallyError('idempotency_in_progress');
    if (begun.kind === 'replay') throw new Replay({ status: begun.status, body: begun.body, headers: { 'Idempotent-Replayed': 'true' } });
    claimed = true;
    return given;
  };
  let outcome: RunOutcome;
  try {
    const response = await installation.call(route.model, route.method, params, caller, { via: call.via, verb: call.verb, address: call.address, beforeCommit });
    outcome = { status: 200, body: { response: response ?? null } };
  } catch (thrown) {
    // Whatever ran before commit was rolled back with the call.
    seen.auditedInCall = false;
    if (thrown instanceof Replay) return thrown.outcome;
    outcome = outcomeOf(thrown);
  }
  if (claimed && key !== undefined && seal) {
    if (outcome.status >= 500 || outcome.status === 429) await guard.idempotency.release(caller.user, key);
    else await guard.idempotency.finish(caller.user, key, outcome.status, outcome.body, seal);
  }
  return outcome;
}

/** A failure as the client sees it: the contract's body, Retry-After for a 429, the cause of a 500 for the log. */
export function outcomeOf(thrown: unknown): RunOutcome {
  const error = thrown instanceof TallyError ? thrown : new TallyError('internal');
  const headers = thrown instanceof RetryLater ? { 'Retry-After': String(thrown.retryAfterSeconds) } : undefined;
  return { status: error.status, body: error.body(), failure: thrown instanceof TallyError ? undefined : thrown, headers };
}
