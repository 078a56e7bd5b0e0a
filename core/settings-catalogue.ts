import { isValidZone } from './kernel/timestamps';

/** The settings Tally knows: where each lives, how its value is checked, whether it may be shown. */
export interface SettingDefinition {
  readonly scope: 'system' | 'company';
  readonly default: string;
  /** A reason the value is refused, or null when it is acceptable. */
  check(value: string): string | null;
  /** Secret settings are never returned by the API. */
  readonly secret?: boolean;
  /** A client group or a client may set its own value (the billing settings, as the reference's S4 Billing/Payment). */
  readonly overridable?: boolean;
}

const booleanText = (value: string) => (value === 'true' || value === 'false' ? null : 'Please give true or false.');
const days = (max: number) => (value: string) => (/^\d{1,3}$/.test(value) && Number(value) <= max ? null : `Please give a whole number of days from 0 to ${max}.`);
const daysOrNever = (max: number) => (value: string) => (value === 'never' ? null : days(max)(value));
const disabledOr = (check: (value: string) => string | null, hint: string) => (value: string) => (value === 'disabled' || check(value) === null ? null : `Please give disabled or ${hint}.`);
/** A payment notice's day: days from the due date, negative before it. */
const noticeDay = disabledOr((v) => (/^-?\d{1,3}$/.test(v) && Math.abs(Number(v)) <= 365 ? null : 'no'), 'a whole number of days from -365 (before the due date) to 365 (after it)');

/** Text printed on PDF invoices: any characters but control characters other than line breaks, up to max. */
const printedText = (max: number, what: string) => (value: string) => {
  if ([...value].length > max) return `The ${what} may be at most ${max} characters long.`;
  return /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/.test(value) ? `The ${what} may not hold control characters other than line breaks.` : null;
};

/**
 * Invoice numbers are stored in a varchar(255) column: the format, with {num} replaced by up to
 * 16 digits (invoice_start has at most 12, and it counts up from there), must fit it. Held well
 * under that, so a long format is refused when it is set, not by every invoices/add after it.
 */
export const INVOICE_FORMAT_MAX = 64;

function invoiceFormat(value: string): string | null {
  if (!value.includes('{num}')) return 'The format must contain {num}.';
  if ([...value].length > INVOICE_FORMAT_MAX) return `The format may be at most ${INVOICE_FORMAT_MAX} characters long.`;
  return null;
}

/** The installation's public address: http(s), a host, optionally a port and a path; nothing else. */
function publicUrl(value: string): string | null {
  if (value === '') return null;
  const refused = 'Please give the address clients reach Tally at, such as https://billing.example.com (http or https, no query or fragment).';
  if (value.length > 255) return refused;
  try {
    const url = new URL(value);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash || url.href.replace(/\/$/, '') !== value.replace(/\/$/, '')) return refused;
    return null;
  } catch {
    return refused;
  }
}

/** '' (the area's own colour) or #rrggbb that white text can be read on (WCAG AA: a contrast of at least 4.5 to 1). */
function areaColour(value: string): string | null {
  if (value === '') return null;
  if (!/^#[0-9a-fA-F]{6}$/.test(value)) return 'Please give a colour as #rrggbb, or nothing for the default.';
  const channel = (hex: string) => {
    const c = parseInt(hex, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(value.slice(1, 3)) + 0.7152 * channel(value.slice(3, 5)) + 0.0722 * channel(value.slice(5, 7));
  return 1.05 / (luminance + 0.05) >= 4.5 ? null : 'White text cannot be read on this colour: please give a darker one (a contrast of at least 4.5 to 1 with white).';
}

export const SETTINGS: Record<string, SettingDefinition> = {
  maintenance_mode: { scope: 'system', default: 'false', check: booleanText },
  system_key: { scope: 'system', default: '', check: () => 'The system key is created at install and cannot be changed.', secret: true },
  timezone: { scope: 'company', default: 'UTC', check: (v) => (isValidZone(v) ? null : 'Please give an IANA time zone such as Europe/Paris.') },
  invoice_format: { scope: 'company', default: '{num}', check: invoiceFormat },
  invoice_start: { scope: 'company', default: '1', check: (v) => (/^\d{1,12}$/.test(v) ? null : 'Please give a whole number.') },
  // What PDF invoices print about the company (docs/delivery.md): its postal address (lines) and tax ids.
  company_address: { scope: 'company', default: '', check: printedText(1000, 'address') },
  company_tax_ids: { scope: 'company', default: '', check: printedText(255, 'tax ids') },
  // Recurring billing and its automation (docs/billing.md), with the reference's meanings.
  inv_days_before_renewal: { scope: 'company', overridable: true, default: '14', check: days(365) },
  inv_group_services: { scope: 'company', overridable: true, default: 'true', check: booleanText },
  inv_suspended_services: { scope: 'company', overridable: true, default: 'true', check: booleanText },
  autodebit: { scope: 'company', overridable: true, default: 'true', check: booleanText },
  autodebit_days_before_due: { scope: 'company', overridable: true, default: '1', check: days(365) },
  autodebit_attempts: { scope: 'company', overridable: true, default: '3', check: (v) => (/^\d{1,2}$/.test(v) && Number(v) >= 1 ? null : 'Please give a whole number of attempts from 1 to 99.') },
  suspend_services_days_after_due: { scope: 'company', overridable: true, default: '7', check: daysOrNever(365) },
  auto_apply_credits: { scope: 'company', overridable: true, default: 'true', check: booleanText },
  auto_paid_pending_services: { scope: 'company', overridable: true, default: 'true', check: booleanText },
  // Queued service changes (docs/billing.md): services/edit keeps a change that costs money until its invoice is paid.
  queue_service_changes: { scope: 'company', default: 'false', check: booleanText },
  // Payment reminders (the reference's Payment Due Notices): each makes one invoice_notices record per invoice.
  notice1: { scope: 'company', overridable: true, default: 'disabled', check: noticeDay },
  notice2: { scope: 'company', overridable: true, default: 'disabled', check: noticeDay },
  notice3: { scope: 'company', overridable: true, default: 'disabled', check: noticeDay },
  // Whether the payment reminders above are emailed to a client (docs/delivery.md); off: they are only recorded.
  send_payment_notices: { scope: 'company', overridable: true, default: 'true', check: booleanText },
  notice_pending_autodebit: { scope: 'company', overridable: true, default: 'disabled', check: disabledOr(days(365), 'a whole number of days from 0 to 365 before the auto debit') },
  // Exchange rates (docs/billing.md): the currency the others' rates are relative to, the extension
  // currencies/updateRates asks for rates, and whether the daily exchange_rates task runs it.
  default_currency: { scope: 'company', default: 'USD', check: (v) => (/^[A-Z]{3}$/.test(v) ? null : 'Please give an ISO 4217 code such as USD.') },
  exchange_rates_processor: {
    scope: 'company',
    default: 'ecb_exchange_rates',
    check: (v) => (/^[a-z][a-z0-9_]{0,63}$/.test(v) ? null : 'Please give the directory name of an exchange rate processor (currencies/getExchangeRateProcessors).'),
  },
  exchange_rates_auto_update: { scope: 'company', default: 'false', check: booleanText },
  automation_time: { scope: 'company', default: '00:00', check: (v) => (/^([01]\d|2[0-3]):[0-5]\d$/.test(v) ? null : 'Please give a local time as HH:MM.') },
  // Events and webhooks (docs/events.md): what endpoints may reach, and how long the outbox keeps what it has delivered.
  webhooks_allow_http: { scope: 'system', default: 'false', check: booleanText },
  webhooks_allow_private_addresses: { scope: 'system', default: 'false', check: booleanText },
  events_retention_days: { scope: 'system', default: '30', check: (v) => (/^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 365 ? null : 'Please give a whole number of days from 1 to 365.') },
  // Mail (docs/delivery.md): a company's mail server and sender. Secret: only mail_settings/get and set
  // show and change them, checked together (core/delivery/mail-config.ts); the password is stored encrypted.
  smtp_host: { scope: 'company', default: '', check: () => 'Set the mail server with mail_settings/set.', secret: true },
  smtp_port: { scope: 'company', default: '587', check: () => 'Set the mail server with mail_settings/set.', secret: true },
  smtp_tls: { scope: 'company', default: 'starttls', check: () => 'Set the mail server with mail_settings/set.', secret: true },
  smtp_user: { scope: 'company', default: '', check: () => 'Set the mail server with mail_settings/set.', secret: true },
  smtp_password: { scope: 'company', default: '', check: () => 'Set the mail server with mail_settings/set.', secret: true },
  mail_from_name: { scope: 'company', default: '', check: () => 'Set the sender with mail_settings/set.', secret: true },
  mail_from_address: { scope: 'company', default: '', check: () => 'Set the sender with mail_settings/set.', secret: true },
  mail_reply_to: { scope: 'company', default: '', check: () => 'Set the sender with mail_settings/set.', secret: true },
  // Where clients reach this installation (docs/delivery.md): the {payment_url} of invoice mails links to its client area.
  public_url: { scope: 'system', default: '', check: publicUrl },
  // The client area (docs/client-area.md): whether clients may cancel their services at term end (the reference's
  // clients_cancel_services), and how many days a pay link made by invoices/createPayHash takes payments.
  clients_cancel_services: { scope: 'company', default: 'true', check: booleanText },
  // The client area's colour (#rrggbb): its header and buttons carry white text, so it must be dark enough to read on.
  client_area_colour: { scope: 'company', default: '', check: areaColour },
  pay_link_days: { scope: 'company', default: '30', check: (v) => (/^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 365 ? null : 'Please give a whole number of days from 1 to 365.') },
  // The language mail goes out in (docs/delivery.md): a client's own `language` setting, else this; a template
  // without a version in it is sent in this language, else as the default.
  language: { scope: 'company', overridable: true, default: 'en_us', check: (v) => (/^[a-z]{2}_[a-z]{2}$/.test(v) ? null : 'Please give a language such as en_us.') },
  // How long the mail log keeps the bodies of messages sent or failed (subjects, recipients and status stay).
  mail_retention_days: { scope: 'system', default: '90', check: (v) => (/^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= 3650 ? null : 'Please give a whole number of days from 1 to 3650.') },
};

/** Settings live in one table; installation-wide ones under company 0. */
export const SYSTEM_COMPANY = 0;
