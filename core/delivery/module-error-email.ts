import { Tx } from '../db/schema';
import { ModuleFailure } from '../billing/module-failure';
import { billingRecipients } from './client-recipients';
import { serviceTags } from './service-email';
import { queueStaffMail } from './staff-mail';

export const MODULE_ERROR_ACTION = 'staff_module_error';

/**
 * Tells the subscribed staff (queueStaffMail) that a module failed to act on a service, in the
 * caller's transaction. Tags: {module}, {action} (provision, suspend, unsuspend, cancel, renew,
 * changePackage), {error} (the module's message: printed escaped in the HTML body like every
 * tag), {service.*} and {client.*} as the client's service mails have them. A service whose
 * adding failed is gone: its tags are what it was given.
 */
export async function queueModuleErrorMail(db: Tx, failure: ModuleFailure): Promise<number> {
  const service = failure.service;
  const contact = (await billingRecipients(db, service.client_id))?.contact ?? null;
  return queueStaffMail(db, failure.companyId, MODULE_ERROR_ACTION, { module: failure.module, action: failure.action, error: failure.error, ...(await serviceTags(db, service, contact)) });
}
