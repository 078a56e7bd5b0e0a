import { AdminRequest, callAs } from '../admin-request';
import { mayChange } from '../area-gate';
import { dataTable } from '../components/data-table';
import { html, SafeHtml } from '../../web/html';
import { formBasics } from '../layout';
import { MAX_ATTACHMENT_BYTES } from '../../../core/delivery/queue-message';

/** emails/getAttachments as the panel shows them. */
interface Attachment {
  readonly id: number;
  readonly name: string;
  readonly type: string;
  readonly size: number;
}

export const ATTACHMENT_PATHS = { add: '/admin/mail/templates/attachments/add', delete: '/admin/mail/templates/attachments/delete' } as const;

const MIB = 1024 * 1024;

function sizeText(bytes: number): string {
  return bytes >= MIB ? `${(bytes / MIB).toFixed(1)} MiB` : bytes >= 1024 ? `${Math.ceil(bytes / 1024)} KiB` : `${bytes} bytes`;
}

/**
 * A template's files, sent with every message made from it: listed, each deletable, and a form to
 * upload one (multipart, at most MAX_ATTACHMENT_BYTES; the area reads it as admin-routes.ts's
 * UPLOAD_ROUTES says). Files belong to the company's own version of a template, so a default one
 * says to save it first.
 */
export async function attachmentsPanel(request: AdminRequest, template: { id: number | null; action: string }): Promise<SafeHtml> {
  const heading = html`<h2 id="attachments-title">Attachments</h2>`;
  if (template.id === null)
    return html`<section class="panel" aria-labelledby="attachments-title">${heading}<p class="hint">Files are attached to the company’s own version of a template: save the template once, then attach files here.</p></section>`;
  const files = (await callAs(request, 'emails', 'getAttachments', { email_id: template.id })) as Attachment[];
  const may = mayChange(request, 'settings');
  return html`<section class="panel" aria-labelledby="attachments-title">
  ${heading}
  <p class="hint">Sent with every message made from this template: each file at most ${MAX_ATTACHMENT_BYTES / MIB} MiB, all of them at most 20 MiB together.</p>
  ${dataTable(
    `Attachments of ${template.action}`,
    [{ label: 'File' }, { label: 'Type' }, { label: 'Size' }, { label: 'Action' }],
    files.map((f) => [
      f.name,
      f.type,
      sizeText(f.size),
      may
        ? html`<form method="post" action="${ATTACHMENT_PATHS.delete}" class="inline-form">${formBasics(request)}<input type="hidden" name="action" value="${template.action}"><input type="hidden" name="email_attachment_id" value="${f.id}"><button type="submit" class="secondary" aria-label="Delete attachment ${f.name}">Delete</button></form>`
        : '',
    ]),
    'No files are attached.',
  )}
  ${
    may
      ? html`<form method="post" action="${ATTACHMENT_PATHS.add}" enctype="multipart/form-data" class="stacked-form">
    ${formBasics(request)}
    <input type="hidden" name="action" value="${template.action}">
    <div class="field"><label for="attachment-file">File to attach</label><input type="file" id="attachment-file" name="file" required></div>
    <div><button type="submit">Attach file</button></div>
  </form>`
      : ''
  }
</section>`;
}
