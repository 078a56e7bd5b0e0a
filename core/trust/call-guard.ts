import type { Call } from '../call-record';
import { Caller, CredentialVerifier } from '../identity/credentials';
import { Db } from '../db/schema';
import { TallyError } from '../kernel/tally-error';
import { AuditLog } from './audit-log';
import { clientNetwork } from './client-network';
import { IdempotencyStore } from './idempotency';
import { Lockouts, subject } from '../identity/lockouts';
import { TrustPolicy } from '../identity/policy';
import { RateLimiter } from './rate-limiter';
import { RetryLater } from '../identity/retry-later';
import { allowsCall, usable } from '../identity/scope';
import { trustDb } from '../identity/trust-tables';

export interface GivenCredentials {
  readonly user: string;
  readonly key: string;
}

/**
 * The trust checks of an API call, in the contract's order: lock-out (429) → credentials (401) →
 * rate (429) ... → scope (403). One per installation, made by the composition root
 * (host/assemble-installation.ts) and shared by the HTTP host and the CLI, so both answer alike. Everything shared between processes is in the database; what a process keeps
 * (credential, lock and rate state) is a cache of it, bounded by `policy.stateCacheMs` or a batch.
 */
export class CallGuard {
  readonly lockouts: Lockouts;
  readonly rates: RateLimiter;
  readonly idempotency: IdempotencyStore;
  readonly audit: AuditLog;

  constructor(
    db: Db,
    private readonly credentials: CredentialVerifier,
    readonly policy: TrustPolicy,
  ) {
    const trust = trustDb(db);
    this.lockouts = new Lockouts(policy, policy.stateCacheMs);
    this.rates = new RateLimiter(trust, policy.rateLimitPerMinute);
    this.idempotency = new IdempotencyStore(trust, policy.idempotencyMs);
    this.audit = new AuditLog(trust, policy.auditRetentionDays);
    this.db = trust;
  }

  private readonly db;

  /**
   * The credential's scope, as the call path's authorise hook: it applies to every call made with
   * a credential, over HTTP, from the CLI's API form, and from an extension called with it.
   */
  readonly scopeCheck = (call: Call): void => {
    // A core model calling another inside a call (clients/create adding its login, services
    // calling their module) is part of the call the scope already allowed.
    if (call.via === 'internal' && call.request.within) return;
    this.authorise(call.caller, call.model, call.method, call.spec.verb);
  };

  /**
   * The caller for the credentials given from `address`, or a TallyError: 429 while the API user
   * at that address, or the address, is locked out, 401 for missing, wrong, expired credentials,
   * 403 from an address outside the credential's allow list. Every wrong key counts towards both
   * lock-outs.
   *
   * An API user is locked out at the address the wrong keys came from, not everywhere: a key is 256
   * random bits, so no lock-out is needed against guessing it, and one that reached every address
   * would let anyone who learns an API user (another company, a log reader) shut its application
   * out by sending wrong keys. The address lock-out slows a scanner trying many users.
   */
  async authenticate(given: GivenCredentials | null, address: string | undefined): Promise<Caller> {
    // Counted per source network, as the admin sign-in counts: an IPv6 client holds a whole /64 and
    // could send each wrong key from a new address in it, so counts per address never reached a limit.
    const source = address ? clientNetwork(address) : undefined;
    const user = given && (source ? subject.apiUserAt(given.user, source) : subject.apiUser(given.user));
    const counted = user ? [{ subject: user, limit: this.policy.lockoutAttempts }] : [];
    if (source) counted.push({ subject: subject.apiAddress(source), limit: this.policy.addressAttempts });
    const locked = await this.lockouts.lockedFor(
      this.db,
      counted.map((c) => c.subject),
    );
    if (locked > 0) throw new RetryLater(locked);
    const caller = given ? await this.credentials.verify(given.user, given.key, undefined, address) : null;
    if (!caller) {
      if (given) await this.lockouts.fail(this.db, counted);
      throw new TallyError('unauthorized');
    }
    const scope = caller.grant!.scope;
    if (scope.expiresAt !== null && Date.now() >= scope.expiresAt) throw new TallyError('unauthorized');
    if (!usable(scope, address ?? 'local', Date.now())) throw new TallyError('forbidden');
    return caller;
  }

  /** 429 when the caller's credential has used its calls of this minute. */
  async throttle(caller: Caller): Promise<void> {
    const wait = await this.rates.take(caller.user);
    if (wait > 0) throw new RetryLater(wait);
  }

  /** 403 when the credential's scope does not allow `model/method` declared for `verb`. */
  authorise(caller: Caller, model: string, method: string, verb: string | undefined): void {
    if (caller.grant && !allowsCall(caller.grant.scope, model, method, verb)) throw new TallyError('forbidden');
  }
}
