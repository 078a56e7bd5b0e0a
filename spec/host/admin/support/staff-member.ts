import { TestServer } from '../../../support/test-server';
import { AdminClient, addStaff } from './admin-client';

/**
 * A second staff member of company 1 in a group of their own that may change only `areas` (none:
 * read-only), signed in: whose pages and forged forms the specs check against the area gate.
 */
export async function signedInMember(server: TestServer, username: string, areas: readonly string[]): Promise<AdminClient> {
  const password = `${username} password 1`;
  await addStaff(server.installation, username, password);
  const as = { companyId: 1, user: 'spec' };
  const groupId = await server.installation.call('staff_groups', 'add', { vars: { name: `${username}'s group`, permissions: [...areas] } }, as);
  const staff = (await server.installation.call('staff', 'getAll', {}, as)) as Array<{ id: number; username: string }>;
  await server.installation.call('staff_groups', 'assign', { staff_id: staff.find((s) => s.username === username)!.id, staff_group_id: groupId }, as);
  const member = new AdminClient(server.url);
  await member.signIn(username, password);
  return member;
}
