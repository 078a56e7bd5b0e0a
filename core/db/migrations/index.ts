import { Migration } from 'kysely';
import * as initial from './001_initial';
import * as billing from './002_billing';
import * as extensions from './003_extensions';
import * as admin from './004_admin';
import * as trust from './005_trust';
import * as referenceModels from './007_reference_models';
import * as recurring from './008_recurring';
import * as billingReference from './009_billing_reference';
import * as serviceRenewals from './010_service_renewals';
import * as defaultClientGroups from './011_default_client_groups';
import * as uniqueIds from './012_unique_ids';
import * as events from './013_events';
import * as extensionTasks from './014_extension_tasks';
import * as mail from './015_mail';
import * as invoicePdfFiles from './016_invoice_pdf_files';
import * as gatewayNotifications from './017_gateway_notifications';
import * as staffGroups from './018_staff_groups';
import * as clientArea from './019_client_area';
import * as recurringInvoices from './022_recurring_invoices';
import * as moduleRows from './025_module_rows';
import * as invoiceDeliveryIds from './026_invoice_delivery_ids';
import * as clientPasswordResets from './028_client_password_resets';
import * as emailGroups from './029_email_groups';
import * as packageOptions from './030_package_options';
import * as serviceChanges from './031_service_changes';
import * as pluginRegistrations from './032_plugin_registrations';
import * as chargeAttempts from './039_charge_attempts';

/** Every migration, in order. Listed in code so a compiled build needs no migrations folder scan. */
export const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '002_billing': billing,
  '003_extensions': extensions,
  '004_admin': admin,
  '005_trust': trust,
  '007_reference_models': referenceModels,
  '008_recurring': recurring,
  '009_billing_reference': billingReference,
  '010_service_renewals': serviceRenewals,
  '011_default_client_groups': defaultClientGroups,
  '012_unique_ids': uniqueIds,
  '013_events': events,
  '014_extension_tasks': extensionTasks,
  '015_mail': mail,
  '016_invoice_pdf_files': invoicePdfFiles,
  '017_gateway_notifications': gatewayNotifications,
  '018_staff_groups': staffGroups,
  '019_client_area': clientArea,
  '022_recurring_invoices': recurringInvoices,
  '025_module_rows': moduleRows,
  '026_invoice_delivery_ids': invoiceDeliveryIds,
  '028_client_password_resets': clientPasswordResets,
  '029_email_groups': emailGroups,
  '030_package_options': packageOptions,
  '031_service_changes': serviceChanges,
  '032_plugin_registrations': pluginRegistrations,
  '039_charge_attempts': chargeAttempts,
};
