import type { Call } from '../call-record';
import { Db } from '../db/schema';
import { TallyError } from '../kernel/tally-error';
import { areaOfModel, parsePermissions, STAFF_AREAS, StaffArea } from '../identity/staff-areas';

/**
 * The staff group's permissions, as the call path's authorise hook: a call made for a staff member
 * (`caller.staffId`, the administrative area's signed-in staff) that is not declared GET needs a
 * group that may change the model's area, else it is refused with the contract's 403 before any
 * parameter is read. Every staff member reads everything; one without a group has full access.
 *
 * The group is read on every such write rather than cached, so a change of group or of its
 * permissions holds from the next call, on every process. A staff member no longer active, or a
 * group that is gone, is refused: the check fails closed. Calls a core model makes inside a call
 * the check already allowed (clients/add adding its login) are part of that call.
 */
export function staffPermissions(db: Db): (call: Call) => void | Promise<void> {
  return (call) => {
    const staffId = call.caller.staffId;
    if (staffId === undefined || call.spec.verb === 'GET') return;
    if (call.via === 'internal' && call.request.within) return;
    return mayChange(call.request.within?.db ?? db, staffId, areaOfModel(call.model));
  };
}

async function mayChange(db: Db, staffId: number, area: StaffArea): Promise<void> {
  if (!(await staffAreas(db, staffId)).includes(area)) throw new TallyError('forbidden');
}

/**
 * The areas a staff member may change: every area without a group, their group's otherwise, none
 * when they are no longer active or their group is gone. The administrative area also takes a
 * screen's form posts, and offers its forms, only to a member whose areas include the screen's.
 */
export async function staffAreas(db: Db, staffId: number): Promise<readonly StaffArea[]> {
  const row = await db
    .selectFrom('staff')
    .leftJoin('staff_groups', 'staff_groups.id', 'staff.staff_group_id')
    .select(['staff.status', 'staff.staff_group_id', 'staff_groups.permissions'])
    .where('staff.id', '=', staffId)
    .executeTakeFirst();
  if (!row || row.status !== 'active') return [];
  if (row.staff_group_id === null) return STAFF_AREAS;
  return row.permissions === null ? [] : parsePermissions(row.permissions);
}
