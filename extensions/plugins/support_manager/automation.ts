import { ExtensionContext, ExtensionEvent, TaskRun } from '../../../host/extensions/kit';

/** How long a ticket awaiting the client's reply stays open without one. */
const STALE_DAYS = 14;

/**
 * A suspended service gets a ticket, so whoever looks after the client sees it among the support
 * work: in the company's first department (one named Billing is made when it has none), for the
 * service's client, high priority.
 */
export async function ticketForSuspension(ctx: ExtensionContext, event: ExtensionEvent) {
  const service = event.payload;
  const clientId = Number(service.client_id);
  const serviceId = Number(service.id ?? service.service_id);
  if (!Number.isInteger(clientId) || !Number.isInteger(serviceId)) return;
  const departmentId = await firstDepartment(ctx);
  const reason = typeof service.suspension_reason === 'string' && service.suspension_reason ? ` (${service.suspension_reason})` : '';
  const ticket = await ctx.db
    .insertInto('support_tickets')
    .values({
      department_id: departmentId,
      client_id: clientId,
      summary: `Service #${serviceId} suspended`,
      priority: 'high',
      status: 'open',
      date_added: event.occurredAt,
      date_updated: event.occurredAt,
      date_closed: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.db
    .insertInto('support_replies')
    .values({ ticket_id: ticket.id, type: 'note', by: 'staff', details: `Service #${serviceId} was suspended at ${event.occurredAt} UTC${reason}. (event ${event.id})`, date_added: event.occurredAt })
    .execute();
}

/** Closes the tickets that have awaited the client's reply for STALE_DAYS days, with a staff note saying so. */
export async function closeStaleTickets(ctx: ExtensionContext, run: TaskRun) {
  const before = new Date(Date.parse(`${run.due.replace(' ', 'T')}Z`) - STALE_DAYS * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
  const stale = await ctx.db.selectFrom('support_tickets').select('id').where('status', '=', 'awaiting_reply').where('date_updated', '<', before).execute();
  for (const { id } of stale) {
    await ctx.db
      .insertInto('support_replies')
      .values({ ticket_id: id, type: 'note', by: 'staff', details: `Closed after ${STALE_DAYS} days without a reply.`, date_added: run.due })
      .execute();
    await ctx.db.updateTable('support_tickets').set({ status: 'closed', date_closed: run.due, date_updated: run.due }).where('id', '=', id).execute();
  }
  ctx.log.info(`Closed ${stale.length} stale ticket(s).`);
}

async function firstDepartment(ctx: ExtensionContext): Promise<number> {
  const first = await ctx.db.selectFrom('support_departments').select('id').orderBy('id').limit(1).executeTakeFirst();
  if (first) return first.id;
  const made = await ctx.db.insertInto('support_departments').values({ name: 'Billing', date_added: ctx.now() }).returning('id').executeTakeFirstOrThrow();
  return made.id;
}
