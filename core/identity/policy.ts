import { config } from '../config';

export interface TrustPolicyValues {
  /** Failed authentications (per API user, per address, per users/auth username) within `lockoutMs` that lock the subject. */
  readonly lockoutAttempts: number;
  /** Failed API authentications from one address that lock the address: five times the per-user limit by default, as offices share an address. */
  readonly addressAttempts: number;
  /** How long the window counts failures, and how long a lock lasts. */
  readonly lockoutMs: number;
  /** Calls per credential per minute, shared by every process; 0 turns the limit off. */
  readonly rateLimitPerMinute: number;
  /** Origins (`https://app.example.com`) whose pages may call the API from a browser. */
  readonly allowedOrigins: readonly string[];
  /** Audit rows older than this many days are deleted. */
  readonly auditRetentionDays: number;
  /** How long a stored Idempotency-Key answer is replayed. */
  readonly idempotencyMs: number;
  /** How long a process trusts what it last read of a lock-out (another process's lock shows within it). */
  readonly stateCacheMs: number;
}

/**
 * The abuse limits and browser rules, from the configuration unless given. Registered in the
 * installation's container by the host, so models (users/auth) and the API apply the same values;
 * resolved without registration (CLI), it reads the configuration.
 */
export class TrustPolicy implements TrustPolicyValues {
  readonly lockoutAttempts: number;
  readonly addressAttempts: number;
  readonly lockoutMs: number;
  readonly rateLimitPerMinute: number;
  readonly allowedOrigins: readonly string[];
  readonly auditRetentionDays: number;
  readonly idempotencyMs: number;
  readonly stateCacheMs: number;

  constructor(values: Partial<TrustPolicyValues> = {}) {
    const c = config();
    this.lockoutAttempts = values.lockoutAttempts ?? c.lockoutAttempts;
    this.addressAttempts = values.addressAttempts ?? this.lockoutAttempts * 5;
    this.lockoutMs = values.lockoutMs ?? c.lockoutMinutes * 60_000;
    this.rateLimitPerMinute = values.rateLimitPerMinute ?? c.apiRateLimit;
    this.allowedOrigins = values.allowedOrigins ?? c.apiAllowedOrigins.split(/[\s,]+/).filter(Boolean);
    this.auditRetentionDays = values.auditRetentionDays ?? c.auditRetentionDays;
    this.idempotencyMs = values.idempotencyMs ?? 24 * 3_600_000;
    this.stateCacheMs = values.stateCacheMs ?? 1000;
  }
}
