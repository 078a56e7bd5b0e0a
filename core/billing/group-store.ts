import { Tx } from '../db/schema';
import { Rule } from '../kernel/input-rules';
import { TallyError } from '../kernel/tally-error';
import { wholeNumber } from './values';

const COLUMNS = ['id', 'company_id', 'name', 'description', 'color'] as const;

export function groupQuery(db: Tx, companyId: number) {
  return db.selectFrom('client_groups').select(COLUMNS).where('company_id', '=', companyId);
}

export function findGroup(db: Tx, companyId: number, groupId: number) {
  return groupQuery(db, companyId).where('id', '=', groupId).executeTakeFirst();
}

export const invalidGroup = () => TallyError.invalid({ client_group_id: { exists: 'Invalid client group ID.' } });

/** The company's default group: its first (the reference gives every company one at install). */
export async function defaultGroupId(db: Tx, companyId: number): Promise<number | null> {
  const row = await groupQuery(db, companyId).orderBy('id').executeTakeFirst();
  return row?.id ?? null;
}

/** A client_group_id of vars: a group of the caller's company (blank: no group). */
export function clientGroupExists(db: Tx, companyId: number): Rule {
  return {
    code: 'exists',
    message: 'Invalid client group ID.',
    check: async (v) => {
      if (v === '' || v === null) return true;
      const id = wholeNumber(v);
      return id !== null && !!(await findGroup(db, companyId, id));
    },
  };
}
