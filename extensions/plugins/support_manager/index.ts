import { closeStaleTickets, ticketForSuspension } from './automation';
import { Departments } from './departments';
import { migrations } from './migrations';
import { Tickets } from './tickets';

/** Support Manager: `support_manager.departments` and `support_manager.tickets`. */
export const models = { departments: Departments, tickets: Tickets };
export { migrations };

/** A ticket when a service is suspended; tickets awaiting the client for 14 days closed nightly. */
export const events = { 'Services.suspend': ticketForSuspension };
export const tasks = { close_stale_tickets: closeStaleTickets };
