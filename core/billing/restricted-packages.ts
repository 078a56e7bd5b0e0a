import { Tx } from '../db/schema';

/** The reference's message when a client orders a restricted package it has no access to. */
export const NOT_ALLOWED = 'The client can not access that package.';

/**
 * Whether a client may order a package of this status: an active one always, a restricted one only
 * when granted it (clients/setRestrictedPackages), as the reference's Services::validateAllowed.
 * (An inactive package is refused on its own, as pricing_id.inactive.)
 */
export async function clientMayOrder(db: Tx, clientId: number, packageId: number, packageStatus: string): Promise<boolean> {
  if (packageStatus !== 'restricted') return true;
  const grant = await db.selectFrom('client_packages').select('package_id').where('client_id', '=', clientId).where('package_id', '=', packageId).executeTakeFirst();
  return grant !== undefined;
}
