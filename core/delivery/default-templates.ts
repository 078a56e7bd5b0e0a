/**
 * The templates every company starts with: the reference's set of email groups (actions), each
 * with a subject, an HTML and a text body, and the tags it is given (the reference's names).
 * A company's edit replaces one (mail_templates); a reset brings this one back.
 */
export interface DefaultTemplate {
  readonly action: string;
  /** client: sent to a client's contacts; staff: to the company's staff address. */
  readonly type: 'client' | 'staff';
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The tags the template is rendered with, as sample values (previews and the check at save time use them). */
  readonly sample: Record<string, unknown>;
}

const company = { name: 'Example Hosting', hostname: 'example.com' };
const contact = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', company: 'Analytical Engines' };
const client = { id_code: '1500', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const invoice = { id: 42, id_code: '1042', date_billed: '2026-11-01', date_due: '2026-11-15', currency: 'USD', subtotal: '90.00', total: '100.00', paid: '0.00', due: '100.00', note_public: '' };
const service = { id: 7, name: 'Web hosting (example.org)', package_name: 'Web hosting', status: 'active', date_renews: '2026-12-01', suspension_reason: '' };
const base = { company, contact, client };
const signature = '\n\nThank you,\n{company.name}';

/** A paragraph per line, for the HTML twin of a text body (tags are kept, the engine escapes what they print). */
function paragraphs(text: string): string {
  return text
    .split('\n\n')
    .map((block) => `<p>${block.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

/**
 * `beforeSignature`, when given, goes between a body and its signature, with an HTML form of its own
 * (a link, say, whose Liquid `if` must not be split across paragraphs).
 */
function client_(action: string, subject: string, text: string, sample: Record<string, unknown>, beforeSignature?: { text: string; html: string }): DefaultTemplate {
  if (!beforeSignature || !text.endsWith(signature)) return { action, type: 'client', subject, text, html: paragraphs(text), sample: { ...base, ...sample } };
  const body = text.slice(0, -signature.length);
  const html = [paragraphs(body), beforeSignature.html, paragraphs(signature.trimStart())].join('\n');
  return { action, type: 'client', subject, text: body + beforeSignature.text + signature, html, sample: { ...base, ...sample } };
}

/** A staff email, with {staff.*} (the member it is addressed to); `html` when the text's paragraphs will not do. */
function staff(action: string, subject: string, text: string, sample: Record<string, unknown>, html = paragraphs(text)): DefaultTemplate {
  return { action, type: 'staff', subject, text, html, sample: { company, staff: staffMember, ...sample } };
}

const staffMember = { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' };
const runTasks = [
  { name: 'create_invoices', title: 'Create invoices', status: 'done', processed: 12, failed: 0 },
  { name: 'autodebit', title: 'Charge autodebit invoices', status: 'done', processed: 4, failed: 1 },
];

// payment_url: the client area's pay link of the invoice; '' for a paid invoice, or while the
// installation has no public_url (Liquid's empty text is true, hence the comparison).
const invoiceSample = { invoice, payment_url: 'https://billing.example.com/client/pay/1/1500/42/0123456789abcdef0123456789abcdef' };
const payLine = {
  text: '{% if payment_url != "" %}\n\nPay online: {payment_url}{% endif %}',
  html: '{% if payment_url != "" %}<p><a href="{payment_url}">Pay invoice {invoice.id_code} online</a></p>{% endif %}',
};

export const DEFAULT_TEMPLATES: readonly DefaultTemplate[] = [
  client_(
    'invoice_delivery_unpaid',
    'Invoice {invoice.id_code} from {company.name}',
    'Hello {contact.first_name},\n\nInvoice {invoice.id_code} for {invoice.total} {invoice.currency} is due on {invoice.date_due}.' + signature,
    invoiceSample,
    payLine,
  ),
  client_(
    'invoice_delivery_paid',
    'Invoice {invoice.id_code} from {company.name} (paid)',
    'Hello {contact.first_name},\n\nInvoice {invoice.id_code} for {invoice.total} {invoice.currency} is paid. This copy is for your records.' + signature,
    invoiceSample,
  ),
  client_(
    'invoice_notice_first',
    'Payment reminder: invoice {invoice.id_code}',
    'Hello {contact.first_name},\n\nInvoice {invoice.id_code} has {invoice.due} {invoice.currency} due on {invoice.date_due}.' + signature,
    invoiceSample,
    payLine,
  ),
  client_(
    'invoice_notice_second',
    'Second reminder: invoice {invoice.id_code}',
    'Hello {contact.first_name},\n\nInvoice {invoice.id_code} still has {invoice.due} {invoice.currency} due (since {invoice.date_due}).' + signature,
    invoiceSample,
    payLine,
  ),
  client_(
    'invoice_notice_third',
    'Final reminder: invoice {invoice.id_code}',
    'Hello {contact.first_name},\n\nInvoice {invoice.id_code} is past due with {invoice.due} {invoice.currency} outstanding. Services may be suspended.' + signature,
    invoiceSample,
    payLine,
  ),
  client_(
    'auto_debit_pending',
    'Invoice {invoice.id_code} will be charged on {autodebit_date}',
    'Hello {contact.first_name},\n\nInvoice {invoice.id_code} for {invoice.due} {invoice.currency} will be charged to your account on file on {autodebit_date}.' + signature,
    { ...invoiceSample, autodebit_date: '2026-11-14' },
  ),
  client_('payment_approved', 'Payment received: {amount} {currency}', 'Hello {contact.first_name},\n\nYour payment of {amount} {currency} (transaction {transaction_id}) was approved.' + signature, {
    amount: '100.00',
    currency: 'USD',
    transaction_id: 'ch_123',
  }),
  client_(
    'payment_declined',
    'Payment declined: {amount} {currency}',
    'Hello {contact.first_name},\n\nYour payment of {amount} {currency} was declined. Please update your payment details.' + signature,
    { amount: '100.00', currency: 'USD' },
  ),
  client_('payment_manual', 'Payment received: {amount} {currency}', 'Hello {contact.first_name},\n\nWe recorded your {payment_type} payment of {amount} {currency}.' + signature, {
    amount: '100.00',
    currency: 'USD',
    payment_type: 'check',
  }),
  client_(
    'payment_nonmerchant',
    'Payment received: {amount} {currency}',
    'Hello {contact.first_name},\n\nWe received your payment of {amount} {currency} through {gateway_name} (transaction {transaction_id}).' + signature,
    { amount: '100.00', currency: 'USD', gateway_name: 'PayPal', transaction_id: 'PP-123' },
  ),
  client_('service_creation', 'Your {service.package_name} is ready', 'Hello {contact.first_name},\n\n{service.name} is active. It renews on {service.date_renews}.' + signature, { service }),
  client_('service_suspension', 'Suspended: {service.name}', 'Hello {contact.first_name},\n\n{service.name} has been suspended. Pay what is due to have it restored.' + signature, { service }),
  client_('service_unsuspension', 'Restored: {service.name}', 'Hello {contact.first_name},\n\n{service.name} is active again.' + signature, { service }),
  client_('service_cancellation', 'Cancelled: {service.name}', 'Hello {contact.first_name},\n\n{service.name} has been cancelled.' + signature, { service }),
  client_(
    'credit_card_expiration',
    'Your card ending {card.last4} expires soon',
    'Hello {contact.first_name},\n\nThe card ending {card.last4} expires at the end of {card.expiration}. Please update it to keep paying automatically.' + signature,
    { card: { last4: '4242', expiration: '2026-11' } },
  ),
  client_(
    'reset_password',
    'Reset your password',
    'Hello {contact.first_name},\n\nReset your password at {password_reset_url} (valid for one hour). If you did not ask for this, ignore this message.' + signature,
    { password_reset_url: 'https://example.com/client/reset/abc' },
  ),
  client_('account_welcome', 'Welcome to {company.name}', 'Hello {contact.first_name},\n\nYour account is ready. Sign in as {username} at {login_url}.' + signature, {
    username: 'ada',
    login_url: 'https://example.com/client/login',
  }),
  staff(
    'staff_module_error',
    'Module error: {module} could not {action} a service of client {client.id_code}',
    'The module {module} could not {action} the service {service.name} (id {service.id}, {service.status}) of client {client.id_code}, {client.first_name} {client.last_name}. Nothing was changed.\n\nThe module answered: {error}',
    { module: 'cpanel', action: 'suspend', error: 'The module "cpanel" could not suspend the service (the host\'s log says why).', service, client },
  ),
  staff(
    'staff_billing_run_report',
    'Billing run of {run_date}: {processed} done, {failed} failed',
    'The billing run of {run_date} for {company.name} ran {tasks_run} task{% if tasks_run != 1 %}s{% endif %}: {processed} done, {failed} failed.\n\n' +
      '{% for task in tasks %}{task.title}: {task.processed} done, {task.failed} failed{% if task.status == "failed" %} (the run stopped here){% endif %}\n{% endfor %}' +
      '{% if failures != empty %}\nFailures:\n{% for failure in failures %}- {failure}\n{% endfor %}{% endif %}',
    { run_date: '2026-11-27', tasks_run: 2, processed: 16, failed: 1, tasks: runTasks, failures: ['invoice 1042: The card was declined.'] },
    '<p>The billing run of {run_date} for {company.name} ran {tasks_run} task{% if tasks_run != 1 %}s{% endif %}: {processed} done, {failed} failed.</p>\n' +
      '<table>\n<tr><th>Task</th><th>Done</th><th>Failed</th></tr>\n' +
      '{% for task in tasks %}<tr><td>{task.title}{% if task.status == "failed" %} (the run stopped here){% endif %}</td><td>{task.processed}</td><td>{task.failed}</td></tr>\n{% endfor %}</table>\n' +
      '{% if failures != empty %}<p>Failures:</p>\n<ul>\n{% for failure in failures %}<li>{failure}</li>\n{% endfor %}</ul>{% endif %}',
  ),
];

const BY_ACTION = new Map(DEFAULT_TEMPLATES.map((t) => [t.action, t]));

export function defaultTemplate(action: string): DefaultTemplate | undefined {
  return BY_ACTION.get(action);
}

export const TEMPLATE_ACTIONS = DEFAULT_TEMPLATES.map((t) => t.action);
