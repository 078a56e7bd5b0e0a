import type { Claim, StageHooks } from '../call-hooks';
import type { Call, IdempotencyRequest } from '../call-record';
import { TallyError } from '../kernel/tally-error';
import { AnswerSeal, IdempotencyStore, validIdempotencyKey } from './idempotency';

/**
 * The claim hook of an API write's `Idempotency-Key`: such a call runs at most once per credential
 * and key. The key is claimed once the parameters are read (after resolve and the authorisers,
 * before binding): the first answer is stored and replayed (`Idempotent-Replayed: true`), the same
 * key with other parameters is a 409, as is a repeat while the first still runs. A 5xx or 429 is
 * not stored (its transaction rolled back, nothing happened), so retrying with the same key runs
 * the call again.
 */
export function idempotentClaim(store: IdempotencyStore): StageHooks['claim'] {
  return (call) => {
    const given = call.request.idempotency;
    if (given === undefined || call.request.verb === 'GET') return undefined;
    return claim(store, call, given);
  };
}

async function claim(store: IdempotencyStore, call: Call, given: IdempotencyRequest): Promise<Claim> {
  const { key } = given;
  if (!validIdempotencyKey(key)) {
    throw TallyError.invalid({ 'Idempotency-Key': { valid: 'The Idempotency-Key must be 1 to 255 visible ASCII characters.' } });
  }
  const user = call.caller.user;
  const seal = new AnswerSeal(given.credentialKey);
  const begun = await store.begin(user, key, seal.fingerprint(call.request.verb ?? '', given.path, call.params), seal);
  if (begun.kind === 'conflict') throw new TallyError('idempotency_conflict');
  if (begun.kind === 'in_progress') throw new TallyError('idempotency_in_progress');
  if (begun.kind === 'replay') return { answer: { status: begun.status, body: begun.body, headers: { 'Idempotent-Replayed': 'true' } } };
  return {
    settle: (outcome) => (outcome.status >= 500 || outcome.status === 429 ? store.release(user, key) : store.finish(user, key, outcome.status, outcome.body, seal)),
  };
}
