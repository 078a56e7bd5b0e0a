import { Departments } from './departments';
import { migrations } from './migrations';
import { Tickets } from './tickets';

/** Support Manager: `support_manager.departments` and `support_manager.tickets`. */
export const models = { departments: Departments, tickets: Tickets };
export { migrations };
