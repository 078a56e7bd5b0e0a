import { callAs, hrefFor, PageHandler } from '../admin-request';
import { dataTable } from '../components/data-table';
import { html } from '../../web/html';
import { sendHtml, staffPage } from '../layout';
import { statusPage } from './status-page';
import { mailTabs } from './mail-tabs';

/** emails/getGroupList and getGroup as the pages show them. */
interface Group {
  readonly id: number;
  readonly action: string;
  readonly type: string;
  readonly notice_type: string | null;
  readonly tags: string;
  readonly company_id: number | null;
}
/** emails/getByGroupId as the group's page shows it. */
interface Email {
  readonly id: number | null;
  readonly action: string;
  readonly lang: string;
  readonly subject: string;
  readonly customized: boolean;
  readonly from: string | null;
  readonly from_name: string | null;
  readonly status: string;
  readonly include_attachments: number;
  readonly signature: false | { readonly name: string };
}

const LIST = '/admin/mail/groups';
const VIEW = '/admin/mail/groups/view';
const TEMPLATE = '/admin/mail/templates/edit';

const origin = (group: Group) => (group.company_id === null ? 'Core' : 'The company’s own');

/** Mail → Email groups: every action mail is sent for (the core ones and the company's own), each linked to its page. */
export const showMailGroups: PageHandler = async (request) => {
  const groups = (await callAs(request, 'emails', 'getGroupList', { sortby: 'action', order: 'asc' })) as Group[];
  const content = html`${mailTabs(request, 'groups')}
<section class="panel" aria-labelledby="groups-title">
  <h2 id="groups-title">Email groups</h2>
  <p class="hint">An email group is one action Tally (or the company, through <code>emails/send</code>) sends mail for; its template is the message. Core groups are every company’s.</p>
  ${dataTable(
    `Email groups of ${request.company.name}`,
    [{ label: 'Action' }, { label: 'Sent to' }, { label: 'Staff notice' }, { label: 'Tags' }, { label: 'Group' }],
    groups.map((g) => [html`<a href="${hrefFor(VIEW, request.company, { email_group_id: String(g.id) })}">${g.action}</a>`, g.type, g.notice_type ?? '', g.tags, origin(g)]),
    'There are no email groups.',
  )}
</section>`;
  sendHtml(request.ctx, 200, staffPage(request, 'mail', 'Email groups', content));
};

/** One group: what it is and its template, with a link to edit it (and its attachments). */
export const showMailGroup: PageHandler = async (request) => {
  const id = String(request.ctx.query.email_group_id ?? '');
  const group = /^[1-9]\d{0,14}$/.test(id) ? ((await callAs(request, 'emails', 'getGroup', { email_group_id: id })) as Group | false) : false;
  if (!group)
    return sendHtml(request.ctx, 404, statusPage('No such email group', 'There is no email group with that id.', { href: hrefFor(LIST, request.company), label: 'Back to the email groups' }));
  const email = (await callAs(request, 'emails', 'getByGroupId', { group_id: id })) as Email | false;
  const content = html`${mailTabs(request, 'groups')}
<section class="panel" aria-labelledby="group-title">
  <h2 id="group-title">Email group ${group.action}</h2>
  <dl class="preview">
    <dt>Sent to</dt><dd>${group.type}</dd>
    <dt>Staff notice</dt><dd>${group.notice_type ?? 'None'}</dd>
    <dt>Tags</dt><dd>${group.tags}</dd>
    <dt>Group</dt><dd>${origin(group)}</dd>
  </dl>
</section>
<section class="panel" aria-labelledby="group-templates-title">
  <h2 id="group-templates-title">Templates</h2>
  ${dataTable(
    `Templates of ${group.action}`,
    [{ label: 'Language' }, { label: 'Subject' }, { label: 'Version' }, { label: 'Sender' }, { label: 'Signature' }, { label: 'Status' }],
    email
      ? [
          [
            email.lang,
            html`<a href="${hrefFor(TEMPLATE, request.company, { action: email.action })}">${email.subject}</a>`,
            email.customized ? 'Edited' : 'Default',
            email.from ? `${email.from_name ?? ''} <${email.from}>`.trim() : 'The mail settings’',
            email.signature ? email.signature.name : 'None',
            email.status,
          ],
        ]
      : [],
    'This group has no template yet (emails/add makes one).',
  )}
</section>`;
  sendHtml(request.ctx, 200, staffPage(request, 'mail', `Email group ${group.action}`, content));
};
