import { shape } from '../../../host/extensions/kit';

const { inputs, allOptional, record, listOf, int, string, timestamp, nothing, orNull } = shape;

/** The shapes of support_manager's methods, for the API reference (as core's `<model>.fields.ts`). */
export const DEPARTMENT_VARS = inputs({
  name: string({ required: true, description: 'At most 128 characters.', example: 'Billing' }),
  description: string(),
  email: string({ format: 'email', description: 'Where the department is reached; empty for none.' }),
  status: string({ enum: ['visible', 'hidden'], description: 'Default visible.' }),
});
export const DEPARTMENT_EDIT = allOptional(DEPARTMENT_VARS);

export const DEPARTMENT = record({
  id: int(),
  company_id: int(),
  name: string(),
  description: string(),
  email: string(),
  status: string({ enum: ['visible', 'hidden'] }),
  date_added: timestamp(),
});

export const DEPARTMENTS = listOf(DEPARTMENT);

const TICKET_FIELDS = {
  id: int(),
  company_id: int(),
  department_id: int(),
  client_id: int(),
  summary: string(),
  priority: string({ enum: ['low', 'medium', 'high', 'critical'] }),
  status: string({ enum: ['open', 'awaiting_reply', 'closed'] }),
  date_added: timestamp(),
  date_updated: timestamp(),
  date_closed: timestamp({ nullable: true }),
};
export const TICKETS = listOf(record(TICKET_FIELDS));

const REPLY = record({ id: int(), type: string({ enum: ['reply', 'note'] }), by: string({ enum: ['staff', 'client'] }), details: string(), date_added: timestamp() });
export const TICKET = record({ ...TICKET_FIELDS, replies: listOf(REPLY, { description: 'Oldest first.' }) });

export const TICKET_VARS = inputs({
  client_id: int({ required: true, example: 1 }),
  department_id: int({ required: true, example: 1 }),
  summary: string({ required: true, description: 'At most 255 characters.', example: 'Cannot log in' }),
  details: string({ required: true, description: 'The first message.', example: 'My password is refused.' }),
  priority: string({ enum: ['low', 'medium', 'high', 'critical'], description: 'Default medium.' }),
});

export const REPLY_VARS = inputs({
  details: string({ required: true, example: 'Try again now.' }),
  by: string({ enum: ['staff', 'client'], description: 'Default staff.' }),
  type: string({ enum: ['reply', 'note'], description: 'A note (staff only) is internal.' }),
});

export { int as id, nothing, orNull };
