import { callable, ExtensionContext, int, object, PAGE_SIZE, pageOffset, singleValue, string, TallyError } from '../../../host/extensions/kit';
import { id, orNull, REPLY_VARS, TICKET, TICKET_VARS, TICKETS } from './fields';

const PRIORITIES = ['low', 'medium', 'high', 'critical'];
const STATUSES = ['open', 'awaiting_reply', 'closed'];

/**
 * Client tickets and their replies. A client's message opens (or reopens) a ticket; a staff reply
 * leaves it awaiting the client; staff notes are internal and change nothing.
 */
export class Tickets {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: TICKET_VARS,
    returns: id({ description: 'The new ticket id.' }),
    description:
      'Open a ticket for vars[client_id] in vars[department_id] with vars[summary], vars[details] (the first message) and optional vars[priority] (low, medium (default), high, critical). Returns its id.',
  })
  async add(vars: Record<string, unknown>) {
    const { is } = this.ctx;
    await this.ctx.assertValid(vars, {
      department_id: [{ code: 'exists', message: 'Invalid department ID.', check: (v: unknown) => this.departmentExists(v) }],
      client_id: [{ code: 'exists', message: 'Invalid client ID.', check: (v: unknown) => this.clientExists(v) }],
      summary: [
        singleValue,
        { code: 'empty', message: 'Please enter a summary.', check: is.present, final: true },
        { code: 'length', message: 'The summary may be at most 255 characters long.', check: is.lengthBetween(1, 255) },
      ],
      priority: { ifSet: true, rules: [{ code: 'format', message: `The priority must be one of: ${PRIORITIES.join(', ')}.`, check: is.oneOf(PRIORITIES) }] },
      details: [singleValue, { code: 'empty', message: 'Please enter the message.', check: is.present }],
    });
    const now = this.ctx.now();
    const ticket = await this.ctx.db
      .insertInto('support_tickets')
      .values({
        company_id: this.ctx.companyId,
        department_id: Number(vars.department_id),
        client_id: Number(vars.client_id),
        summary: String(vars.summary).trim(),
        priority: String(vars.priority ?? 'medium'),
        status: 'open',
        date_added: now,
        date_updated: now,
        date_closed: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.addReply(ticket.id, 'reply', 'client', String(vars.details), now);
    return ticket.id;
  }

  @callable({ verb: 'GET', params: [int('ticket_id')], returns: orNull(TICKET), description: 'A ticket with its replies, oldest first; null when the company has no such ticket.' })
  async get(ticketId: number) {
    const ticket = await this.find(ticketId);
    if (!ticket) return null;
    const replies = await this.ctx.db.selectFrom('support_replies').select(['id', 'type', 'by', 'details', 'date_added']).where('ticket_id', '=', ticketId).orderBy('id').execute();
    return { ...ticket, replies };
  }

  @callable({
    verb: 'GET',
    params: [string('status', { default: null }), int('client_id', { default: null }), int('page', { default: 1 })],
    returns: TICKETS,
    description: 'One page (25) of tickets, most recently updated first, optionally of one status (open, awaiting_reply, closed) and one client.',
  })
  async getList(status: string | null, clientId: number | null, page: number) {
    if (status !== null && !STATUSES.includes(status)) throw TallyError.invalid({ status: { format: `The status must be one of: ${STATUSES.join(', ')}.` } });
    let query = this.ctx.db.selectFrom('support_tickets').selectAll().where('company_id', '=', this.ctx.companyId);
    if (status !== null) query = query.where('status', '=', status);
    if (clientId !== null) query = query.where('client_id', '=', clientId);
    return query.orderBy('date_updated', 'desc').orderBy('id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page)).execute();
  }

  @callable({
    verb: 'POST',
    params: [int('ticket_id'), object('vars')],
    vars: REPLY_VARS,
    returns: id({ description: 'The new reply id.' }),
    description: 'Add vars[details] to a ticket, by vars[by] (staff (default) or client); vars[type] note (staff only) is internal. A client reply reopens a closed ticket. Returns the reply id.',
  })
  async reply(ticketId: number, vars: Record<string, unknown>) {
    const by = vars.by ?? 'staff';
    const type = vars.type ?? 'reply';
    await this.ctx.assertValid(
      { ...vars, ticket_id: ticketId, by, type },
      {
        ticket_id: [{ code: 'exists', message: 'Invalid ticket ID.', check: async () => !!(await this.find(ticketId)), final: true }],
        by: [{ code: 'format', message: 'by must be staff or client.', check: this.ctx.is.oneOf(['staff', 'client']) }],
        type: [{ code: 'format', message: 'type must be reply, or note (staff only).', check: (v: string) => v === 'reply' || (v === 'note' && by === 'staff') }],
        details: [singleValue, { code: 'empty', message: 'Please enter the message.', check: this.ctx.is.present }],
      },
    );
    const now = this.ctx.now();
    const id = await this.addReply(ticketId, String(type), String(by), String(vars.details), now);
    const changes = type === 'note' ? { date_updated: now } : by === 'client' ? { status: 'open', date_closed: null, date_updated: now } : { status: 'awaiting_reply', date_updated: now };
    await this.ctx.db.updateTable('support_tickets').set(changes).where('id', '=', ticketId).execute();
    return id;
  }

  @callable({ verb: 'PUT', params: [int('ticket_id')], returns: TICKET, description: 'Close a ticket. Returns it.' })
  async close(ticketId: number) {
    if (!(await this.find(ticketId))) throw TallyError.invalid({ ticket_id: { exists: 'Invalid ticket ID.' } });
    const now = this.ctx.now();
    await this.ctx.db.updateTable('support_tickets').set({ status: 'closed', date_closed: now, date_updated: now }).where('id', '=', ticketId).execute();
    return this.get(ticketId);
  }

  private find(ticketId: number) {
    return this.ctx.db.selectFrom('support_tickets').selectAll().where('id', '=', ticketId).where('company_id', '=', this.ctx.companyId).executeTakeFirst();
  }

  private async addReply(ticketId: number, type: string, by: string, details: string, now: string): Promise<number> {
    const row = await this.ctx.db.insertInto('support_replies').values({ ticket_id: ticketId, type, by, details, date_added: now }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  private async departmentExists(value: unknown): Promise<boolean> {
    if (!this.ctx.is.integer(value)) return false;
    return !!(await this.ctx.db.selectFrom('support_departments').select('id').where('id', '=', Number(value)).where('company_id', '=', this.ctx.companyId).executeTakeFirst());
  }

  /** Through the core clients model, so "a client of this company" means what the core says. */
  private async clientExists(value: unknown): Promise<boolean> {
    return this.ctx.is.integer(value) && !!(await this.ctx.models.clients.get({ client_id: Number(value), get_settings: false }));
  }
}
