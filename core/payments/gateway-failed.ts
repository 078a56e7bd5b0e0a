import { TallyError } from '../kernel/tally-error';

/**
 * A gateway that threw, refused, or answered something other than the contract's shape: the 400
 * naming it and what it did, and that nothing came of it. Extension code failing is contained as
 * the caller's bad luck, never a 500.
 */
export function gatewayFailed(gateway: string, what: string, outcome: 'nothing was recorded' | 'nothing was changed' = 'nothing was recorded'): TallyError {
  return TallyError.invalid({ gateway: { failed: `The gateway "${gateway}" ${what}; ${outcome}.` } });
}
