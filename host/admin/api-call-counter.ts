import Koa from 'koa';
import { sql } from 'kysely';
import { Installation } from '../../core/installation';
import { formatUtc } from '../../core/kernel/timestamps';
import { AdminDb, adminDb } from './admin-tables';

/** Counts reach the database this often; the dashboard lags the API by at most this much per process. */
const FLUSH_EVERY_MS = 5000;
const HOUR_MS = 3_600_000;

const hourOf = (ms: number) => formatUtc(new Date(Math.floor(ms / HOUR_MS) * HOUR_MS));

/**
 * API calls per UTC hour, for the dashboard. Counting costs the API one Map increment per call:
 * counts are kept in memory and added to api_call_stats every few seconds in one upsert per
 * (hour, outcome), so any number of host processes add up without locking each other out.
 * Calls a process answered in its last seconds before a crash are lost; a clean stop flushes.
 */
export class ApiCallCounter {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: AdminDb) {}

  /** Starts counting for an installation; the last counts are written when it closes. */
  static forInstallation(installation: Installation): ApiCallCounter {
    const counter = new ApiCallCounter(adminDb(installation.db));
    counter.timer = setInterval(() => void counter.flush(), FLUSH_EVERY_MS).unref();
    installation.onClose(async () => {
      clearInterval(counter.timer);
      await counter.flush();
    });
    return counter;
  }

  /** Wraps the API middleware: every answered call is counted by its status. */
  wrap(api: Koa.Middleware): Koa.Middleware {
    // Not an async function around an await: one promise and one turn fewer on every call.
    return (ctx, next) =>
      Promise.resolve(api(ctx, next)).then(
        () => this.record(ctx.status),
        (error: unknown) => {
          this.record(ctx.status);
          throw error;
        },
      );
  }

  record(status: number, now = Date.now()): void {
    // The hour as a number: formatting it as text is left to the flush, off the API's path.
    const key = `${Math.floor(now / HOUR_MS)}|${status < 400 ? 'ok' : 'error'}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  }

  /** Writes what has been counted since the last flush. Flushes run one after another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write()).catch(() => undefined);
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (!this.pending.size) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      for (const [key, calls] of batch) {
        const [hourNumber, outcome] = key.split('|');
        const hour = hourOf(Number(hourNumber) * HOUR_MS);
        await this.db
          .insertInto('api_call_stats')
          .values({ hour, outcome, calls })
          .onConflict((oc) => oc.columns(['hour', 'outcome']).doUpdateSet({ calls: sql`api_call_stats.calls + excluded.calls` }))
          .execute();
        batch.delete(key);
      }
    } catch (error) {
      // The database was unavailable: keep the counts not yet written for the next flush.
      for (const [key, calls] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + calls);
      throw error;
    }
  }
}

/** Calls answered in the last 24 hourly buckets (the current hour included): ok and error. */
export async function apiCallsLastDay(db: AdminDb, now = Date.now()): Promise<{ ok: number; error: number }> {
  const rows = await db
    .selectFrom('api_call_stats')
    .select(['outcome', (eb) => eb.fn.sum<number | string>('calls').as('calls')])
    .where('hour', '>=', hourOf(now - 23 * HOUR_MS))
    .groupBy('outcome')
    .execute();
  const total = (outcome: string) => Number(rows.find((r) => r.outcome === outcome)?.calls ?? 0);
  return { ok: total('ok'), error: total('error') };
}
