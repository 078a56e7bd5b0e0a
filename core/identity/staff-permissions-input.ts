import { TallyError } from '../kernel/tally-error';
import { isStaffArea, STAFF_AREAS, StaffArea } from './staff-areas';

/**
 * A group's permissions as given: a list (`permissions[]=clients&permissions[]=billing`), the same
 * as an object of the form's bracket indexes, or one text of names separated by spaces or commas
 * (the CLI's `--areas clients,billing`). Absent or empty: none (read-only). An unknown area is a
 * 400 naming the known ones, never silently dropped.
 */
export function readPermissions(value: unknown): StaffArea[] {
  if (value === undefined || value === null || value === '') return [];
  const given = typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value) : [value];
  const unknown = given.filter((area) => !isStaffArea(area));
  if (unknown.length) {
    throw TallyError.invalid({ permissions: { valid: `Permissions are areas among ${STAFF_AREAS.join(', ')}.` } });
  }
  return STAFF_AREAS.filter((area) => given.includes(area));
}
