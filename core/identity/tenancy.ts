import { CallContext } from '../kernel/call-context';
import { TallyError } from '../kernel/tally-error';

export const invalidCompanyError = () => TallyError.invalid({ company_id: { exists: 'Invalid company ID.' } });

/** Installation-wide powers (companies/add, system settings, staff identities): the contract's 403 for a company credential. */
export function requireInstallation(ctx: CallContext): void {
  if (!ctx.installationWide) throw new TallyError('forbidden');
}

/**
 * The company a call acts on: the one named, or the caller's. A company credential naming another
 * company is told it does not exist (as another company's client is as absent as a missing one),
 * so a credential cannot even learn which company ids are in use.
 */
export function companyOf(ctx: CallContext, named: unknown): number {
  if (named === undefined || named === null || named === '') return ctx.companyId;
  const id = typeof named === 'number' ? named : /^\d{1,15}$/.test(String(named)) ? Number(named) : NaN;
  if (!Number.isSafeInteger(id)) throw invalidCompanyError();
  if (id !== ctx.companyId && !ctx.installationWide) throw invalidCompanyError();
  return id;
}

/**
 * Whether a reader's company_id names the caller's company (or none, meaning the caller's). Another
 * company reads as a company with nothing in it (lists [], counts 0), on every model alike: that is
 * what a reference consumer sees for a company without records, and it tells a credential nothing
 * about which other company ids exist. Writers refuse another company with invalidCompanyError.
 */
export function readsOwnCompany(ctx: CallContext, named: number | null | undefined): boolean {
  return named === null || named === undefined || named === ctx.companyId;
}
