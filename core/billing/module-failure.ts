import { TallyError } from '../kernel/tally-error';
import { ServiceRow } from './service-store';

/** What a module failed to do to which service, carried by the 400 that answers the failure. */
export interface ModuleFailure {
  readonly companyId: number;
  /** The service as the module was given it (one being added is gone with the call that failed). */
  readonly service: ServiceRow;
  readonly module: string;
  /** The lifecycle action (ModuleAction): provision, suspend, unsuspend, cancel, renew, changePackage. */
  readonly action: string;
  /** The module's own message (its 400), else what Tally says in its place: never what the module threw. */
  readonly error: string;
}

// Kept beside the error rather than on it: the 400 stays the contract's, and whoever finally
// records the failure (the call path's answer, the billing run's tally) can tell the staff.
const FAILURES = new WeakMap<TallyError, ModuleFailure>();

/** The text of a 400: every message of its `errors`, else its own. */
export function refusalText(error: TallyError): string {
  const details = error.errors ? Object.values(error.errors).flatMap((e) => Object.values(e)) : [];
  return details.length ? details.join(' ') : error.message;
}

/** Marks `error` as a module's failure to act on a service (the first mark stands: the innermost knows best). */
export function markModuleFailure(error: TallyError, failure: Omit<ModuleFailure, 'error'>): void {
  if (!FAILURES.has(error)) FAILURES.set(error, { ...failure, error: refusalText(error) });
}

/** The module failure `thrown` answers, if it is one. */
export function moduleFailureOf(thrown: unknown): ModuleFailure | undefined {
  return thrown instanceof TallyError ? FAILURES.get(thrown) : undefined;
}
