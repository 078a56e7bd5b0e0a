import { Db } from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { untilWritten } from './run-retries';
import { toStoredUtc } from '../billing/renew-dates';
import { DateTime } from 'luxon';

/** How many slices a task's clients are dealt into: what several processes share out. */
export const SLICES = 16;

const later = (nowUtc: string, seconds: number) => toStoredUtc(DateTime.fromFormat(nowUtc, 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' }).plus({ seconds }));

/**
 * Leases on one slice of one task of one company, in the database so every process sees them.
 * A process works on a slice only while it holds its lease; a lease whose holder died expires and
 * the next run takes the slice over (and, the work being idempotent, finishes what is left). A
 * finished slice's lease is released, so running again at once works on what is left (each unit
 * checks again inside its transaction, and unique keys stop anything done twice).
 */
export class Leases {
  constructor(
    private readonly db: Db,
    private readonly owner: string,
    private readonly ttlSeconds: number,
  ) {}

  /** Takes the lease when it is free or expired at `nowUtc`; true when this owner now holds it. */
  claim(companyId: number, task: string, slice: number, nowUtc: string): Promise<boolean> {
    // Each lease write is a statement of its own: on SQLite it waits for another process's batch.
    return untilWritten(() => this.tryClaim(companyId, task, slice, nowUtc));
  }

  private async tryClaim(companyId: number, task: string, slice: number, nowUtc: string): Promise<boolean> {
    const until = later(nowUtc, this.ttlSeconds);
    const taken = await this.db
      .updateTable('automation_leases')
      .set({ owner: this.owner, lease_until: until })
      .where('company_id', '=', companyId)
      .where('task', '=', task)
      .where('slice', '=', slice)
      .where((eb) => eb.or([eb('lease_until', '<=', nowUtc), eb('owner', '=', this.owner)]))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return true;
    try {
      await this.db.insertInto('automation_leases').values({ company_id: companyId, task, slice, owner: this.owner, lease_until: until }).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Extends a held lease (long slices); false when another process has taken it over meanwhile. */
  async extend(companyId: number, task: string, slice: number, nowUtc: string): Promise<boolean> {
    const result = await untilWritten(() =>
      this.db
        .updateTable('automation_leases')
        .set({ lease_until: later(nowUtc, this.ttlSeconds) })
        .where('company_id', '=', companyId)
        .where('task', '=', task)
        .where('slice', '=', slice)
        .where('owner', '=', this.owner)
        .executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) === 1;
  }

  /** Lets go of a finished slice. */
  async release(companyId: number, task: string, slice: number): Promise<void> {
    // The epoch, not the run's clock: a run with an earlier clock may take the slice at once.
    await untilWritten(() =>
      this.db
        .updateTable('automation_leases')
        .set({ lease_until: '1970-01-01 00:00:00' })
        .where('company_id', '=', companyId)
        .where('task', '=', task)
        .where('slice', '=', slice)
        .where('owner', '=', this.owner)
        .execute(),
    );
  }
}
