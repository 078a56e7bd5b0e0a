import { bool, int, listOf, record, string } from '../kernel/shape';

/** The reference's email record as Tally keeps it (a company's template of a group in one language). */
export const EMAIL_FIELDS = {
  id: int({ nullable: true, description: "The company's email; null while the group's default is used (emails/add or edit makes one)." }),
  email_group_id: int(),
  action: string({ description: 'The email group action: invoice_delivery_unpaid, invoice_notice_first, ...' }),
  lang: string(),
  type: string({ description: 'client, staff or shared.' }),
  subject: string(),
  html: string(),
  text: string(),
  customized: bool({ description: "The company's own version (reset brings the default back)." }),
  tags: listOf(string(), { description: 'The tags the template is given ({invoice.id_code}, ...).' }),
  from: string({ nullable: true, description: "A from address of its own; null: the mail settings'." }),
  from_name: string({ nullable: true }),
  email_signature_id: int({ nullable: true }),
  include_attachments: int({ description: '1: its attachments go with every message; 0: not.' }),
  status: string({ enum: ['active', 'inactive'], description: 'inactive: nothing is sent with it.' }),
};

export const EMAIL = record(EMAIL_FIELDS);

export const SIGNATURE = record({ id: int(), company_id: int(), name: string(), text: string(), html: string() });

export const ATTACHMENT = record({
  id: int(),
  email_id: int(),
  name: string({ description: 'The file name the message gives it.' }),
  type: string({ description: 'Its content type.' }),
  size: int({ description: 'Bytes.' }),
});

/** The reference's email group record. */
export const EMAIL_GROUP = record({
  id: int(),
  action: string(),
  type: string({ enum: ['client', 'staff', 'shared'] }),
  notice_type: string({ nullable: true, description: 'bcc, to, or null.' }),
  plugin_dir: string({ nullable: true }),
  tags: string({ description: 'Comma-separated: {contact.first_name},{invoice.id_code}.' }),
  company_id: int({ nullable: true, description: "null for a core group (every company's); else the company that added it." }),
});
