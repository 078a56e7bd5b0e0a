import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { pager, wholeNumberOr } from '../components/list-controls';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { notice, redirectTo, sendHtml, staffPage } from '../layout';
import { PAGE_SIZE } from '../../../core/kernel/paging';
import { MailLogEntry, mailLogTable } from './mail-log-records';
import { mailTabs } from './mail-tabs';

const PATH = '/admin/mail/log';

/** Mail → Mail log: every message of the company in view, newest first, a page at a time, each resendable. */
export const showMailLog: PageHandler = async (request) => {
  const resent = wholeNumberOr(request.ctx.query.resent, 0);
  await render(request, 200, wholeNumberOr(request.ctx.query.page, 1), resent ? notice('ok', `The message is in the outbox again as entry ${resent}.`) : undefined);
};

/** clients/resendMailLogEntry: a new message with the same recipients, subject, bodies and attachments; back to where it was pressed. */
export const resendMailLog: PageHandler = async (request) => {
  const clientId = field(request.form, 'client_id');
  const outcome = await attempt(() => callAs(request, 'clients', 'resendMailLogEntry', { log_id: field(request.form, 'log_id') ?? '' }) as Promise<number>);
  if (!outcome.ok) return render(request, 400, 1, problemsNotice(outcome.messages));
  const back = clientId
    ? hrefFor('/admin/clients/view', request.company, { client_id: clientId, tab: 'mail', resent: String(outcome.value) })
    : hrefFor(PATH, request.company, { resent: String(outcome.value) });
  redirectTo(request.ctx, back);
};

async function render(request: AdminRequest, status: number, page: number, top?: SafeHtml) {
  const [entries, total] = (await Promise.all([callAs(request, 'clients', 'getMailLogList', { page }), callAs(request, 'clients', 'getMailLogListCount')])) as [MailLogEntry[], number];
  const content = html`${top ?? ''}
${mailTabs(request, 'log')}
<section class="panel" aria-labelledby="log-title">
  <h2 id="log-title">Mail log</h2>
  <p class="hint">Every message ${request.company.name} wrote, sent or not, with what the mail server last answered. Resend makes a new message of the same one.</p>
  ${mailLogTable(request, `Mail log of ${request.company.name}`, entries, {}, 'No message has been written yet.')}
  ${total > PAGE_SIZE ? pager(PATH, request.company, page, total, PAGE_SIZE) : ''}
</section>`;
  sendHtml(request.ctx, status, staffPage(request, 'mail', 'Mail log', content));
}
