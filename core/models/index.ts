import { Accounts } from './accounts';
import { ApiKeys } from './api-keys';
import { Audit } from './audit';
import { ClientGroups } from './client-groups';
import { Clients } from './clients';
import { Companies } from './companies';
import { Contacts } from './contacts';
import { Coupons } from './coupons';
import { Currencies } from './currencies';
import { Encryption } from './encryption';
import { InvoiceNotices } from './invoice-notices';
import { ExtensionTasks } from './extension-tasks';
import { Invoices } from './invoices';
import { GatewayManager } from './extension-managers/gateway-manager';
import { ModuleManager } from './extension-managers/module-manager';
import { PluginManager } from './extension-managers/plugin-manager';
import { PackageGroups } from './package-groups';
import { Packages } from './packages';
import { PackageOptions } from './package-options';
import { PackageOptionGroups } from './package-option-groups';
import { ServiceChanges } from './service-changes';
import { Pricings } from './pricings';
import { Services } from './services';
import { Settings } from './settings';
import { Staff } from './staff';
import { StaffGroups } from './staff-groups';
import { Taxes } from './taxes';
import { Transactions } from './transactions';
import { Users } from './users';
import { Events } from './events';
import { Webhooks } from './webhooks';
import { Emails } from './emails';
import { EmailGroups } from './email-groups';
import { MailSettings } from './mail-settings';
import { GatewayNotifications } from './gateway-notifications';
import { GatewayPayments } from './gateway-payments';

/** The core models, registered under their API names by every installation. */
export const coreModels = [
  Users,
  Companies,
  ApiKeys,
  Settings,
  Encryption,
  PluginManager,
  ModuleManager,
  GatewayManager,
  ExtensionTasks,
  Clients,
  ClientGroups,
  Contacts,
  Currencies,
  Taxes,
  Invoices,
  Transactions,
  Audit,
  Events,
  Webhooks,
  MailSettings,
  Emails,
  EmailGroups,
  GatewayNotifications,
  GatewayPayments,
  Staff,
  StaffGroups,
];

/** Recurring billing (docs/billing.md). */
export const recurringModels = [Pricings, Packages, PackageGroups, PackageOptions, PackageOptionGroups, Coupons, Services, ServiceChanges, Accounts, InvoiceNotices];
