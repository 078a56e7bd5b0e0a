import { callAs, hrefFor, PageHandler } from '../admin-request';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { uploadedFile } from '../../web/upload-form';
import { redirectTo } from '../layout';
import { MAX_ATTACHMENT_BYTES } from '../../../core/delivery/queue-message';
import { renderMailTemplate } from './mail-templates-page';

const EDIT = '/admin/mail/templates/edit';

/**
 * emails/addAttachments with the file uploaded on a template's page. A file over the cap is refused
 * here, before any call, with the cap named; the model's own refusals (all files over 20 MiB, a
 * name it will not put in a header) are shown the same way. Nothing is attached then.
 */
export const addTemplateAttachment: PageHandler = async (request) => {
  const action = field(request.form, 'action');
  const file = uploadedFile(request.form, 'file');
  const refuse = (message: string) => renderMailTemplate(request, 400, action, problemsNotice([message]));
  if (!file) return refuse('Please choose a file to attach.');
  if (file.tooLarge) return refuse(`The file is larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB, the most a message may carry; nothing was attached.`);
  const template = (await callAs(request, 'emails', 'getByType', { action })) as { id: number | null } | false;
  if (!template || template.id === null) return refuse('Files are attached to the company’s own version of a template: save the template first.');
  const files = [{ name: file.filename, type: file.contentType, content: file.content.toString('base64') }];
  const outcome = await attempt(() => callAs(request, 'emails', 'addAttachments', { email_id: template.id, files }));
  if (!outcome.ok) return renderMailTemplate(request, 400, action, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(EDIT, request.company, { action, done: 'attached' }));
};

/** emails/deleteAttachment; another company's attachment id is the model's 400. */
export const deleteTemplateAttachment: PageHandler = async (request) => {
  const action = field(request.form, 'action');
  const outcome = await attempt(() => callAs(request, 'emails', 'deleteAttachment', { email_attachment_id: field(request.form, 'email_attachment_id') }));
  if (!outcome.ok) return renderMailTemplate(request, 400, action, problemsNotice(outcome.messages));
  redirectTo(request.ctx, hrefFor(EDIT, request.company, { action, done: 'detached' }));
};
