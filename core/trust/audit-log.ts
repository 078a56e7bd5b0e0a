import { formatUtc } from '../kernel/timestamps';
import { reusedWrite, rowsOf } from '../db/reused-write';
import { Tx } from '../db/schema';
import { TrustDb, trustDb } from '../identity/trust-tables';

export interface AuditEntry {
  readonly companyId: number | null;
  /** The API user, `staff:<username>` or `cli`. */
  readonly actor: string;
  readonly credentialId?: number;
  readonly model: string;
  readonly method: string;
  readonly verb: string;
  readonly status: number;
  readonly requestId: string;
  readonly address: string;
  /** The parameters as given; only their names are kept. */
  readonly params: Record<string, unknown>;
}

/**
 * The audit log: one row per write call and admin action, with who, what, when, from where and the
 * outcome, and the names of the parameters given — never their values (passwords, keys and card
 * data travel as parameters). Rows older than the retention are deleted, at most once an hour.
 * A write call's row can be written inside the call's own transaction (`within`), so it commits
 * with what it records and costs no commit of its own.
 */
export class AuditLog {
  private lastSweep = 0;

  constructor(
    private readonly db: TrustDb,
    private readonly retentionDays: number,
  ) {}

  /** @param within the call's transaction (then the caller runs `sweepIfDue` once it has committed). */
  async record(entry: AuditEntry, now = Date.now(), within?: TrustDb): Promise<void> {
    await auditInsert((within ?? this.db) as unknown as Tx, [
      formatUtc(new Date(now)),
      entry.companyId,
      entry.actor.slice(0, 300),
      entry.credentialId ?? null,
      entry.model.slice(0, 255),
      entry.method.slice(0, 255),
      entry.verb.slice(0, 8),
      entry.status,
      entry.requestId.slice(0, 100),
      entry.address.slice(0, 64),
      parameterNames(entry.params).join(',').slice(0, 4000),
    ]);
    if (!within) await this.sweepIfDue(now);
  }

  /** Deletes rows past the retention, at most once an hour; never inside a call's transaction, which it would lengthen. */
  async sweepIfDue(now = Date.now()): Promise<void> {
    if (now - this.lastSweep <= 3_600_000) return;
    this.lastSweep = now;
    await this.db
      .deleteFrom('audit_log')
      .where('at', '<', formatUtc(new Date(now - this.retentionDays * 86_400_000)))
      .execute();
  }
}

const AUDIT_COLUMNS = ['at', 'company_id', 'actor', 'credential_id', 'model', 'method', 'verb', 'status', 'request_id', 'address', 'params'] as const;

/** Every write call adds a row: compiled once (values in AUDIT_COLUMNS' order). */
const auditInsert = reusedWrite((db, values) =>
  trustDb(db)
    .insertInto('audit_log')
    .values(rowsOf(AUDIT_COLUMNS, values) as never),
);

/** `vars[lines][0][amount]`-style names of everything given, down to two levels; lists count once. */
export function parameterNames(params: Record<string, unknown>, prefix = '', depth = 0): string[] {
  const names: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    const full = prefix ? `${prefix}[${name}]` : name;
    const nested = value !== null && typeof value === 'object' && !Array.isArray(value) && depth < 1;
    if (nested) names.push(...parameterNames(value as Record<string, unknown>, full, depth + 1));
    else names.push(full);
  }
  return names;
}
