import { Tx } from '../../db/schema';
import { parsePermissions, STAFF_AREAS, StaffArea } from '../../identity/staff-areas';

export interface StaffMemberRecord {
  id: number;
  user_id: number;
  username: string;
  company_id: number;
  first_name: string;
  last_name: string;
  email: string;
  status: string;
  staff_group_id: number | null;
  group: { id: number; name: string } | null;
  permissions: StaffArea[];
}

/** Staff members of one company with their sign-in name and group; never a password or key. */
export function staffQuery(db: Tx, companyId: number) {
  return db
    .selectFrom('staff')
    .innerJoin('users', 'users.id', 'staff.user_id')
    .leftJoin('staff_groups', 'staff_groups.id', 'staff.staff_group_id')
    .select([
      'staff.id',
      'staff.user_id',
      'users.username',
      'staff.company_id',
      'staff.first_name',
      'staff.last_name',
      'staff.email',
      'staff.status',
      'staff.staff_group_id',
      'staff_groups.name as group_name',
      'staff_groups.permissions as group_permissions',
    ])
    .where('staff.company_id', '=', companyId);
}

type Row = Awaited<ReturnType<ReturnType<typeof staffQuery>['executeTakeFirstOrThrow']>>;

export function presentStaff(row: Row): StaffMemberRecord {
  const grouped = row.staff_group_id !== null && row.group_name !== null;
  return {
    id: row.id,
    user_id: row.user_id,
    username: row.username,
    company_id: row.company_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    status: row.status,
    staff_group_id: grouped ? row.staff_group_id : null,
    group: grouped ? { id: row.staff_group_id!, name: row.group_name! } : null,
    permissions: grouped ? parsePermissions(row.group_permissions ?? '') : [...STAFF_AREAS],
  };
}
