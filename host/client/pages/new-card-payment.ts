import { html, SafeHtml } from '../../web/html';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { notice } from '../../web/page-response';
import { CardForm } from '../../../core/payments/card-form';
import { call, ClientRequest, mayUse } from '../client-request';
import { wordsOf } from '../client-layout';
import { processorCardForm } from './processor-card-form';
import { ChargeOutcome, InvoiceRecord, outcomeText } from './invoice-view';
import { notFound } from './not-found';

export const NEW_CARD_PAYMENT_PATH = '/client/invoices/pay-card';

/**
 * The company's card form drawn by the processor's script (gateway_payments/getCardForm), when the
 * session may keep cards: paying with a new card stores it through the gateway first
 * (accounts/addCc, the client_accounts area), so a contact without that area is not offered it.
 */
export async function newCardFormOf(request: ClientRequest): Promise<CardForm | null> {
  if (!mayUse(request.session, 'client_accounts')) return null;
  return (await call(request, 'gateway_payments', 'getCardForm', {})) as CardForm | null;
}

/** The invoice page's "pay with a new card": the processor's card form (processor-card-form.ts), posting only its token here. */
export function newCardPaymentForm(request: ClientRequest, form: CardForm, invoice: InvoiceRecord, dueText: string): SafeHtml {
  const { t } = wordsOf(request.company);
  return html`<section aria-labelledby="new-card-title">
<h2 id="new-card-title">${t('pay.newCard', { amount: dueText })}</h2>
${processorCardForm(request, form, {
  action: NEW_CARD_PAYMENT_PATH,
  hidden: html`<input type="hidden" name="invoice_id" value="${invoice.id}">`,
  choice: { name: 'keep', id: 'card-keep', label: t('pay.newCardSave') },
  button: t('pay.submit', { amount: dueText }),
})}
</section>`;
}

/**
 * POST /client/invoices/pay-card: invoice_id, token (the processor's, never a card number), keep.
 * The card is stored through the company's card-form gateway (accounts/addCc, which refuses a
 * number for such a gateway and a token already saved), what is due is charged to it
 * (accounts/chargeInvoice), and unless the client chose to keep it the gateway forgets it at once
 * (accounts/deleteCc), whatever the charge answered. Each call goes through the call path as the
 * client: another client's invoice is not found before any card is stored.
 */
export async function payWithNewCard(request: ClientRequest, show: (invoice: InvoiceRecord, status: number, message: SafeHtml) => Promise<void>): Promise<void> {
  const invoiceId = field(request.form, 'invoice_id');
  if (!/^\d{1,15}$/.test(invoiceId)) return notFound(request);
  const invoice = (await call(request, 'invoices', 'get', { invoice_id: Number(invoiceId) })) as InvoiceRecord | false;
  if (!invoice) return notFound(request);
  const cardForm = await newCardFormOf(request);
  if (!cardForm) return notFound(request);
  const words = wordsOf(request.company);
  const token = field(request.form, 'token');
  // Without script the form posts no token: nothing is stored or charged.
  if (token === '') return show(invoice, 400, problemsNotice([words.t('cardForm.unchecked')]));
  const vars = { client_id: request.session.clientId, token, gateway: cardForm.gateway };
  const stored = await attempt(() => call(request, 'accounts', 'addCc', { vars }) as Promise<number>);
  if (!stored.ok) return show(invoice, 400, problemsNotice(stored.messages));
  const keep = field(request.form, 'keep') === 'true';
  let charged;
  try {
    charged = await attempt(() => call(request, 'accounts', 'chargeInvoice', { invoice_id: invoice.id, account_id: stored.value }) as Promise<ChargeOutcome>);
  } finally {
    if (!keep) await call(request, 'accounts', 'deleteCc', { account_id: stored.value });
  }
  const shown = ((await call(request, 'invoices', 'get', { invoice_id: invoice.id })) as InvoiceRecord | false) || invoice;
  if (!charged.ok) return show(shown, 400, problemsNotice(charged.messages));
  const said = outcomeText(words, charged.value, words.money(charged.value.amount, charged.value.currency), [shown]);
  await show(shown, charged.value.status === 'approved' ? 200 : 402, notice(said.kind, said.text));
}
