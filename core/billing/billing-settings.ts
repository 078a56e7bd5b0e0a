import { Tx } from '../db/schema';
import { SETTINGS } from '../settings-catalogue';

/** A company's recurring-billing settings, read and typed (docs/billing.md says what each means). */
export interface BillingSettings {
  readonly timezone: string;
  readonly invoiceDaysBeforeRenewal: number;
  readonly invoiceServicesTogether: boolean;
  readonly invoiceSuspendedServices: boolean;
  readonly autodebit: boolean;
  readonly autodebitDaysBeforeDue: number;
  readonly autodebitAttempts: number;
  /** Null when services are never suspended for non-payment. */
  readonly suspendDaysAfterDue: number | null;
  readonly autoApplyCredits: boolean;
  readonly provisionPaidPending: boolean;
  /** Local `HH:MM` at which the daily tasks run. */
  readonly automationTime: string;
  /** The payment notices turned on, earliest first: days from the due date (negative: before). */
  readonly notices: ReadonlyArray<{ readonly notice: string; readonly days: number }>;
  /** Days before an invoice's auto debit its client is told of it; null: never. */
  readonly pendingAutodebitNoticeDays: number | null;
}

/** The payment notice settings, first to third. */
export const NOTICES = ['notice1', 'notice2', 'notice3'] as const;

/** The keys a client group or a client may set for itself (the rest are the company's alone). */
export const OVERRIDABLE_KEYS: readonly string[] = Object.keys(SETTINGS).filter((key) => SETTINGS[key].overridable);

/** The company's own settings as stored (keys it never set are absent). */
export async function companySettingValues(db: Tx, companyId: number): Promise<Map<string, string>> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).where('company_id', '=', companyId).execute();
  return new Map(rows.map((r) => [r.key, r.value]));
}

export async function readBillingSettings(db: Tx, companyId: number): Promise<BillingSettings> {
  return billingSettingsFrom(await companySettingValues(db, companyId));
}

/** Typed settings from stored values, each key's catalogue default where none is stored. */
export function billingSettingsFrom(stored: ReadonlyMap<string, string>): BillingSettings {
  const text = (key: string) => stored.get(key) ?? SETTINGS[key].default;
  const suspend = text('suspend_services_days_after_due');
  return {
    timezone: text('timezone'),
    invoiceDaysBeforeRenewal: Number(text('inv_days_before_renewal')),
    invoiceServicesTogether: text('inv_group_services') === 'true',
    invoiceSuspendedServices: text('inv_suspended_services') === 'true',
    autodebit: text('autodebit') === 'true',
    autodebitDaysBeforeDue: Number(text('autodebit_days_before_due')),
    autodebitAttempts: Number(text('autodebit_attempts')),
    suspendDaysAfterDue: suspend === 'never' ? null : Number(suspend),
    autoApplyCredits: text('auto_apply_credits') === 'true',
    provisionPaidPending: text('auto_paid_pending_services') === 'true',
    automationTime: text('automation_time'),
    notices: NOTICES.filter((notice) => text(notice) !== 'disabled')
      .map((notice) => ({ notice, days: Number(text(notice)) }))
      .sort((a, b) => a.days - b.days),
    pendingAutodebitNoticeDays: text('notice_pending_autodebit') === 'disabled' ? null : Number(text('notice_pending_autodebit')),
  };
}
