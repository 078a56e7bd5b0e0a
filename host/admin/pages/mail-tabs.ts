import { AdminRequest, hrefFor } from '../admin-request';
import { tabLinks } from '../components/list-controls';
import { SafeHtml } from '../../web/html';

export type MailTab = 'settings' | 'templates' | 'groups' | 'signatures' | 'log';

/** The Mail section's pages: the server and sender, the templates, email groups, signatures, the company's mail log. */
export function mailTabs(request: AdminRequest, current: MailTab): SafeHtml {
  return tabLinks(
    'Mail pages',
    [
      { key: 'settings', label: 'Server and sender', href: hrefFor('/admin/settings/mail', request.company) },
      { key: 'templates', label: 'Templates', href: hrefFor('/admin/mail/templates', request.company) },
      { key: 'groups', label: 'Email groups', href: hrefFor('/admin/mail/groups', request.company) },
      { key: 'signatures', label: 'Signatures', href: hrefFor('/admin/mail/signatures', request.company) },
      { key: 'log', label: 'Mail log', href: hrefFor('/admin/mail/log', request.company) },
    ],
    current,
  );
}
