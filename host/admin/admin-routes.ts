import { PageHandler } from './admin-request';
import { changeCredentialLimits, createCredential, revokeCredential, showApiAccess } from './pages/api-access-page';
import { showAudit } from './pages/audit-page';
import { sendInvoicePdf } from './pages/invoice-pdf-page';
import { showDashboard } from './pages/dashboard-page';
import { disableExtensionTask, enableExtensionTask, extensionAction, showExtensions } from './pages/extensions-page';
import { addWebhook, showWebhooks, webhookAction } from './pages/webhooks-page';
import { saveMailSettings, sendTestMessage, showMailSettings } from './pages/mail-settings-page';
import { resetMailTemplate, saveMailTemplate, showMailTemplate, showMailTemplates } from './pages/mail-templates-page';
import { resendMailLog, showMailLog } from './pages/mail-log-page';
import { showMailGroup, showMailGroups } from './pages/mail-groups-page';
import { addMailSignature, deleteMailSignature, saveMailSignature, showMailSignature, showMailSignatures } from './pages/mail-signatures-page';
import { addTemplateAttachment, deleteTemplateAttachment } from './pages/mail-attachments-actions';
import { MAX_ATTACHMENT_BYTES } from '../../core/delivery/queue-message';
import { addStaffQuickLink, deleteStaffQuickLink, saveStaffNotices, showStaffMember } from './pages/staff-member-page';
import { addPresetGroups, addStaffGroup, assignStaffGroup, deleteStaffGroup, editStaffGroup, showStaff } from './pages/staff-page';
import { showClients } from './pages/clients-list-page';
import { addClient, editClient, showAddClient, showEditClient } from './pages/client-form-page';
import { addClientNote, showClient } from './pages/client-profile-page';
import { showInvoices } from './pages/invoices-list-page';
import { addInvoice, showAddInvoice } from './pages/invoice-form-page';
import { chargeAccount, invoiceDeliveryAction, recordPayment, showInvoice, voidInvoice } from './pages/invoice-page';
import { gatedBy } from './area-gate';
import { addGroupOption, addOptionGroup, deleteOptionGroup, editGroupOption, editOptionGroup, moveGroupOption, showPackageOptions } from './pages/package-options-page';
import { addPackageGroup, deletePackageGroup, showPackages } from './pages/packages-list-page';
import { addPackage, deletePackage, editPackage, showAddPackage, showEditPackage } from './pages/package-form-page';
import { addService, changeServicePackage, serviceAction, setRestrictedPackages, showAddService, showChangeQuote, showService } from './pages/service-page';
import { showPayments } from './pages/payments-list-page';
import { applyTransaction, captureTransaction, refundTransaction, showTransaction, unapplyTransaction, voidTransaction } from './pages/transaction-page';
import { reprocessNotification, showInbox, showNotification } from './pages/gateway-inbox-page';
import { addCompany, setMaintenance, setTimezone, showSystem } from './pages/system-page';
import { addServerGroup, deleteServer, deleteServerGroup, showServers } from './pages/servers-page';
import { addServer, editServer, showAddServer, showEditServer } from './pages/server-form-page';
import { editServerGroup, showEditServerGroup } from './pages/server-group-page';
import { addTax, deleteTax, editTax, saveTaxIds, showEditTax, showTaxes } from './pages/taxes-page';
import { addCurrency, deleteCurrency, editCurrency, saveRateSettings, showCurrencies, showEditCurrency, updateRates } from './pages/currencies-page';

/**
 * Every page of the area behind the staff session, by `<METHOD> <path>`. Sign-in, sign-out and the
 * assets are answered before this table (admin-area.ts); everything here needs a session, and every
 * POST here has passed the CSRF check before its handler runs. A screen of a staff area is wrapped
 * in gatedBy (area-gate.ts): every member sees its pages, only one who may change the area posts.
 */
export const ADMIN_ROUTES: ReadonlyMap<string, PageHandler> = new Map([
  ['GET /admin', showDashboard],
  ['GET /admin/clients', showClients],
  ['GET /admin/clients/add', gatedBy('clients', showAddClient)],
  ['POST /admin/clients/add', gatedBy('clients', addClient)],
  ['GET /admin/clients/view', showClient],
  ['GET /admin/clients/edit', gatedBy('clients', showEditClient)],
  ['POST /admin/clients/edit', gatedBy('clients', editClient)],
  ['POST /admin/clients/notes/add', gatedBy('clients', addClientNote)],
  ['GET /admin/invoices', showInvoices],
  ['GET /admin/invoices/add', gatedBy('billing', showAddInvoice)],
  ['POST /admin/invoices/add', gatedBy('billing', addInvoice)],
  ['GET /admin/invoices/view', showInvoice],
  ['POST /admin/invoices/pay', gatedBy('billing', recordPayment)],
  ['POST /admin/invoices/charge', gatedBy('billing', chargeAccount)],
  ['POST /admin/invoices/void', gatedBy('billing', voidInvoice)],
  ['POST /admin/invoices/delivery', gatedBy('billing', invoiceDeliveryAction)],
  ['GET /admin/invoices/pdf', sendInvoicePdf],
  ['GET /admin/packages', gatedBy('catalog', showPackages)],
  ['POST /admin/packages/groups/add', gatedBy('catalog', addPackageGroup)],
  ['POST /admin/packages/groups/delete', gatedBy('catalog', deletePackageGroup)],
  ['POST /admin/packages/delete', gatedBy('catalog', deletePackage)],
  ['GET /admin/packages/options', gatedBy('catalog', showPackageOptions)],
  ['POST /admin/packages/options/groups/add', gatedBy('catalog', addOptionGroup)],
  ['POST /admin/packages/options/groups/edit', gatedBy('catalog', editOptionGroup)],
  ['POST /admin/packages/options/groups/delete', gatedBy('catalog', deleteOptionGroup)],
  ['POST /admin/packages/options/add-option', gatedBy('catalog', addGroupOption)],
  ['POST /admin/packages/options/order', gatedBy('catalog', moveGroupOption)],
  ['POST /admin/packages/options/edit-option', gatedBy('catalog', editGroupOption)],
  ['GET /admin/packages/add', gatedBy('catalog', showAddPackage)],
  ['POST /admin/packages/add', gatedBy('catalog', addPackage)],
  ['GET /admin/packages/edit', gatedBy('catalog', showEditPackage)],
  ['POST /admin/packages/edit', gatedBy('catalog', editPackage)],
  ['GET /admin/packages/servers', gatedBy('settings', showServers)],
  ['GET /admin/packages/servers/add', gatedBy('settings', showAddServer)],
  ['POST /admin/packages/servers/add', gatedBy('settings', addServer)],
  ['GET /admin/packages/servers/edit', gatedBy('settings', showEditServer)],
  ['POST /admin/packages/servers/edit', gatedBy('settings', editServer)],
  ['POST /admin/packages/servers/delete', gatedBy('settings', deleteServer)],
  ['POST /admin/packages/servers/groups/add', gatedBy('settings', addServerGroup)],
  ['GET /admin/packages/servers/groups/edit', gatedBy('settings', showEditServerGroup)],
  ['POST /admin/packages/servers/groups/edit', gatedBy('settings', editServerGroup)],
  ['POST /admin/packages/servers/groups/delete', gatedBy('settings', deleteServerGroup)],
  ['GET /admin/services/add', gatedBy('services', showAddService)],
  ['POST /admin/services/add', gatedBy('services', addService)],
  ['POST /admin/services/restricted', gatedBy('services', setRestrictedPackages)],
  ['GET /admin/services/view', gatedBy('services', showService)],
  ['POST /admin/services/action', gatedBy('services', serviceAction)],
  ['GET /admin/services/change', gatedBy('services', showChangeQuote)],
  ['POST /admin/services/change', gatedBy('services', changeServicePackage)],
  ['GET /admin/payments', gatedBy('billing', showPayments)],
  ['GET /admin/payments/view', gatedBy('billing', showTransaction)],
  ['POST /admin/payments/apply', gatedBy('billing', applyTransaction)],
  ['POST /admin/payments/unapply', gatedBy('billing', unapplyTransaction)],
  ['POST /admin/payments/refund', gatedBy('billing', refundTransaction)],
  ['POST /admin/payments/capture', gatedBy('billing', captureTransaction)],
  ['POST /admin/payments/void', gatedBy('billing', voidTransaction)],
  ['GET /admin/payments/inbox', gatedBy('billing', showInbox)],
  ['GET /admin/payments/inbox/view', gatedBy('billing', showNotification)],
  ['POST /admin/payments/inbox/reprocess', gatedBy('billing', reprocessNotification)],
  ['GET /admin/settings/api', gatedBy('settings', showApiAccess)],
  ['POST /admin/settings/api/create', gatedBy('settings', createCredential)],
  ['POST /admin/settings/api/revoke', gatedBy('settings', revokeCredential)],
  ['POST /admin/settings/api/limits', gatedBy('settings', changeCredentialLimits)],
  ['GET /admin/settings/webhooks', gatedBy('settings', showWebhooks)],
  ['POST /admin/settings/webhooks/add', gatedBy('settings', addWebhook)],
  ['POST /admin/settings/webhooks/action', gatedBy('settings', webhookAction)],
  ['GET /admin/settings/mail', gatedBy('settings', showMailSettings)],
  ['POST /admin/settings/mail', gatedBy('settings', saveMailSettings)],
  ['POST /admin/settings/mail/test', gatedBy('settings', sendTestMessage)],
  ['GET /admin/mail/templates', gatedBy('settings', showMailTemplates)],
  ['GET /admin/mail/templates/edit', gatedBy('settings', showMailTemplate)],
  ['POST /admin/mail/templates/edit', gatedBy('settings', saveMailTemplate)],
  ['POST /admin/mail/templates/reset', gatedBy('settings', resetMailTemplate)],
  ['POST /admin/mail/templates/attachments/add', gatedBy('settings', addTemplateAttachment)],
  ['POST /admin/mail/templates/attachments/delete', gatedBy('settings', deleteTemplateAttachment)],
  ['GET /admin/mail/groups', gatedBy('settings', showMailGroups)],
  ['GET /admin/mail/groups/view', gatedBy('settings', showMailGroup)],
  ['GET /admin/mail/signatures', gatedBy('settings', showMailSignatures)],
  ['POST /admin/mail/signatures/add', gatedBy('settings', addMailSignature)],
  ['GET /admin/mail/signatures/edit', gatedBy('settings', showMailSignature)],
  ['POST /admin/mail/signatures/edit', gatedBy('settings', saveMailSignature)],
  ['POST /admin/mail/signatures/delete', gatedBy('settings', deleteMailSignature)],
  ['GET /admin/mail/log', showMailLog],
  ['POST /admin/mail/log/resend', gatedBy('clients', resendMailLog)],
  ['GET /admin/settings/staff', gatedBy('staff', showStaff)],
  ['POST /admin/settings/staff/groups/add', gatedBy('staff', addStaffGroup)],
  ['POST /admin/settings/staff/groups/presets', gatedBy('staff', addPresetGroups)],
  ['POST /admin/settings/staff/groups/edit', gatedBy('staff', editStaffGroup)],
  ['POST /admin/settings/staff/groups/delete', gatedBy('staff', deleteStaffGroup)],
  ['POST /admin/settings/staff/assign', gatedBy('staff', assignStaffGroup)],
  ['GET /admin/settings/staff/member', gatedBy('staff', showStaffMember)],
  ['POST /admin/settings/staff/member/notices', gatedBy('staff', saveStaffNotices)],
  ['POST /admin/settings/staff/member/links/add', gatedBy('staff', addStaffQuickLink)],
  ['POST /admin/settings/staff/member/links/delete', gatedBy('staff', deleteStaffQuickLink)],
  ['GET /admin/settings/system', gatedBy('settings', showSystem)],
  ['GET /admin/settings/taxes', gatedBy('settings', showTaxes)],
  ['POST /admin/settings/taxes/add', gatedBy('settings', addTax)],
  ['GET /admin/settings/taxes/edit', gatedBy('settings', showEditTax)],
  ['POST /admin/settings/taxes/edit', gatedBy('settings', editTax)],
  ['POST /admin/settings/taxes/delete', gatedBy('settings', deleteTax)],
  ['POST /admin/settings/taxes/settings', gatedBy('settings', saveTaxIds)],
  ['GET /admin/settings/currencies', gatedBy('settings', showCurrencies)],
  ['POST /admin/settings/currencies/add', gatedBy('settings', addCurrency)],
  ['GET /admin/settings/currencies/edit', gatedBy('settings', showEditCurrency)],
  ['POST /admin/settings/currencies/edit', gatedBy('settings', editCurrency)],
  ['POST /admin/settings/currencies/delete', gatedBy('settings', deleteCurrency)],
  ['POST /admin/settings/currencies/settings', gatedBy('settings', saveRateSettings)],
  ['POST /admin/settings/currencies/rates', gatedBy('settings', updateRates)],
  ['GET /admin/audit', showAudit],
  ['POST /admin/settings/system/maintenance', gatedBy('settings', setMaintenance)],
  ['POST /admin/settings/system/timezone', gatedBy('settings', setTimezone)],
  ['POST /admin/settings/system/companies', gatedBy('settings', addCompany)],
  ['GET /admin/settings/extensions', gatedBy('settings', showExtensions)],
  ['POST /admin/settings/extensions/install', gatedBy('settings', extensionAction('install'))],
  ['POST /admin/settings/extensions/enable', gatedBy('settings', extensionAction('enable'))],
  ['POST /admin/settings/extensions/disable', gatedBy('settings', extensionAction('disable'))],
  ['POST /admin/settings/extensions/upgrade', gatedBy('settings', extensionAction('upgrade'))],
  ['POST /admin/settings/extensions/uninstall', gatedBy('settings', extensionAction('uninstall'))],
  ['POST /admin/settings/extensions/settings', gatedBy('settings', extensionAction('settings'))],
  ['POST /admin/settings/extensions/task-enable', gatedBy('settings', enableExtensionTask)],
  ['POST /admin/settings/extensions/task-disable', gatedBy('settings', disableExtensionTask)],
]);

/**
 * The routes whose form carries a file (multipart/form-data), with the most bytes the file may
 * have; every other form of the area is read urlencoded only (web/form-body.ts).
 */
export const UPLOAD_ROUTES: ReadonlyMap<string, number> = new Map([['POST /admin/mail/templates/attachments/add', MAX_ATTACHMENT_BYTES]]);

/** `/admin/` is `/admin`; HEAD is answered as GET (Koa sends no body for it). */
export function routeKey(method: string, path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return `${method === 'HEAD' ? 'GET' : method} ${trimmed}`;
}
