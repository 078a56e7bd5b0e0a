import { allOptional, inputs, int, listOf, record, string, timestamp } from '../kernel/shape';
import { STAFF_AREAS } from '../identity/staff-areas';

const AREAS = listOf(string({ enum: STAFF_AREAS }), { description: 'The areas its members may change; every member reads every area.' });

export const STAFF_GROUP = record({ id: int(), company_id: int(), name: string(), permissions: AREAS, members: int({ description: 'How many staff members are in it.' }), date_added: timestamp() });

export const STAFF_GROUP_ADD = inputs({
  name: string({ required: true, description: 'Up to 64 characters, unique in the company.', example: 'Accounts' }),
  permissions: listOf(string({ enum: STAFF_AREAS }), { description: 'Areas its members may change (permissions[]=clients&permissions[]=billing); none: read-only.' }),
});
export const STAFF_GROUP_EDIT = allOptional(STAFF_GROUP_ADD);

export const STAFF_MEMBER = record({
  id: int(),
  user_id: int(),
  username: string(),
  company_id: int(),
  first_name: string(),
  last_name: string(),
  email: string({ format: 'email' }),
  status: string({ enum: ['active', 'inactive'] }),
  staff_group_id: int({ nullable: true, description: 'null: no group, full access.' }),
  group: record({ id: int(), name: string() }, { nullable: true }),
  permissions: listOf(string({ enum: STAFF_AREAS }), { description: 'The areas the member may change (all of them without a group).' }),
});
