import type { Caller, Grant } from './caller';
import { Tx } from '../db/schema';

/**
 * The after-commit work of calls made inside a call (a module called by services/add, a core
 * method called from an extension): it runs once the enclosing call's transaction has committed,
 * and is dropped with it when it rolls back.
 */
export type AfterCommitQueue = Array<() => Promise<void>>;

/**
 * What a model knows about the call it serves: the transaction every query of the call runs in, the
 * caller's company (its records, its timezone) and the installation's system key. Registered in the
 * call's own container, so models receive it by constructor injection and never see the transport.
 */
export class CallContext {
  constructor(
    readonly db: Tx,
    readonly companyId: number,
    readonly timezone: string,
    readonly systemKey: string,
    /** The API user making the call, or `cli`/`admin` for local administration. */
    readonly caller: string,
    /** The whole credential the call is made with, for calls this call makes in turn. */
    readonly origin: Caller = { companyId, user: caller },
    /** Where calls made inside this one leave their after-commit work (absent where nothing commits: reads). */
    readonly afterCommit?: AfterCommitQueue,
  ) {}

  /** The API credential's grant; absent for in-process callers, which act for the installation. */
  get grant(): Grant | undefined {
    return this.origin.grant;
  }

  /** Installation credentials and in-process callers may act beyond the caller's company. */
  get installationWide(): boolean {
    return !this.grant || this.grant.installation;
  }

  /**
   * A narrowed credential (allowed calls, read-only, an IP allow list or an expiry) may not mint,
   * change or revoke credentials: it could lift its own limits (edit itself) or mint one without
   * them, and a key meant for one address or one month would then work from anywhere, for ever.
   */
  get scoped(): boolean {
    if (!this.grant) return false;
    const scope = this.grant.scope;
    return scope.patterns !== null || scope.readOnly || scope.addresses !== null || scope.expiresAt !== null;
  }
}
