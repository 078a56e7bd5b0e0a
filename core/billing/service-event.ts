import { CallContext } from '../kernel/call-context';
import { emit } from '../events/emit';
import { EventName } from '../events/event-names';
import { presentServices, serviceQuery } from './service-store';

/**
 * A service event with the service as services/get answers it, except that encrypted fields (a
 * module's passwords) carry no value: an event travels to receivers that must never hold a secret.
 */
export async function emitServiceEvent(ctx: CallContext, type: EventName, serviceId: number): Promise<void> {
  const row = await serviceQuery(ctx.db, ctx.companyId).where('services.id', '=', serviceId).executeTakeFirstOrThrow();
  const [service] = await presentServices(ctx.db, [row], ctx.systemKey);
  await emit(ctx, type, { ...service, fields: service.fields.map((field) => (field.encrypted ? { ...field, value: null } : field)) });
}
