import { Task } from '../task-run';
import { applyCredits } from './apply-credits';
import { autodebit } from './autodebit';
import { exchangeRates } from './exchange-rates';
import { createInvoices } from './create-invoices';
import { paymentReminders } from './payment-reminders';
import { processServiceChanges } from './service-changes';
import { cancelScheduled, processRenewals, provisionPaidPending, suspendServices, unsuspendServices } from './service-actions';

/** The billing run's tasks, in the order a run does them (the reference's automation tasks). */
export const TASKS: readonly Task[] = [
  createInvoices,
  applyCredits,
  autodebit,
  paymentReminders,
  provisionPaidPending,
  processRenewals,
  processServiceChanges,
  unsuspendServices,
  suspendServices,
  cancelScheduled,
  exchangeRates,
];
