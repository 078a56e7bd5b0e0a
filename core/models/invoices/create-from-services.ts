import { CallContext } from '../../kernel/call-context';
import { ModelCalls } from '../../kernel/model-calls';
import { TallyError } from '../../kernel/tally-error';
import { requireClientId } from '../../billing/client-store';
import { formatUtc, parseTimestamp } from '../../kernel/timestamps';
import { serviceQuery } from '../../billing/service-store';
import { invoiceServices } from '../../billing/from-services';

export interface CreateFromServicesArgs {
  readonly clientId: number;
  readonly serviceIds: unknown;
  readonly currency: string;
  readonly dueDate: string;
  readonly allowProRata: boolean;
  readonly servicesRenew: boolean;
  readonly termCycles: number;
}

/** invoices/createFromServices: checks its arguments, then invoiceServices does the work. */
export async function createFromServices(ctx: CallContext, calls: ModelCalls, args: CreateFromServicesArgs): Promise<number> {
  const raw = Array.isArray(args.serviceIds) ? args.serviceIds : args.serviceIds && typeof args.serviceIds === 'object' ? Object.values(args.serviceIds) : [args.serviceIds];
  const ids = raw.map((v) => (typeof v === 'number' || (typeof v === 'string' && /^\d{1,12}$/.test(v)) ? Number(v) : NaN));
  const errors: Record<string, Record<string, string>> = {};
  if (!ids.length || ids.some((id) => !Number.isSafeInteger(id))) errors.service_ids = { format: 'Please give the ids of the services to invoice.' };
  const due = parseTimestamp(args.dueDate, ctx.timezone);
  if (!due) errors.due_date = { format: 'Please give the due date as YYYY-MM-DD or YYYY-MM-DD hh:mm:ss.' };
  if (args.termCycles < 1 || args.termCycles > 120) errors.term_cycles = { format: 'The term cycles must be 1 to 120.' };
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  const unique = [...new Set(ids)];
  const services = await serviceQuery(ctx.db, ctx.companyId).where('services.id', 'in', unique).orderBy('services.id').execute();
  if (services.length !== unique.length) throw TallyError.invalid({ service_ids: { exists: 'Invalid service ID.' } });
  await requireClientId(ctx.db, ctx.companyId, args.clientId);
  return invoiceServices(ctx, calls, args.clientId, services, {
    currency: args.currency.toUpperCase(),
    dueDate: formatUtc(due!),
    allowProRata: args.allowProRata,
    renew: args.servicesRenew,
    termCycles: args.termCycles,
    now: formatUtc(new Date()),
  });
}
