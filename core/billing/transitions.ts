import { CallContext } from '../kernel/call-context';
import { ModelCalls } from '../kernel/model-calls';
import { TallyError } from '../kernel/tally-error';
import { ModuleLifecycle } from './module-lifecycle';
import { ServiceRow } from './service-store';
import { emitServiceEvent } from './service-event';

/** The moves of a service its client is told of. */
export type ServiceMove = 'creation' | 'suspension' | 'unsuspension' | 'cancellation';

const transitionError = (action: string, from: readonly string[], status: string) =>
  TallyError.invalid({ status: { transition: `Only ${from.join(' or ')} services can be ${action}; this one is ${status}.` } });

/**
 * The status moves of a service, shared by the API and the billing run: each asks the module
 * first (when `useModule`) and changes the record only when the module agreed, all in the
 * caller's transaction. `now` is the run's clock (the API passes the wall clock). `tell`, when
 * given, tells the client of a move in the same transaction (the models and the billing run pass
 * the mail of core/delivery/service-email.ts): always of a suspension and an unsuspension, of a
 * creation or cancellation when `notify` asks.
 */
export class ServiceTransitions {
  private readonly module: ModuleLifecycle;

  constructor(
    private readonly ctx: CallContext,
    calls: ModelCalls,
    private readonly now: string,
    private readonly tell: (service: ServiceRow, move: ServiceMove) => Promise<unknown> = async () => null,
  ) {
    this.module = new ModuleLifecycle(ctx, calls);
  }

  /** pending or in_review → active, provisioned by the module. */
  async activate(service: ServiceRow, useModule = true, notify = false): Promise<void> {
    if (!['pending', 'in_review'].includes(service.status)) throw transitionError('activated', ['pending', 'in_review'], service.status);
    if (useModule) await this.module.provision(service);
    await this.update(service.id, { status: 'active' });
    if (notify) await this.tell(service, 'creation');
  }

  /** active → suspended; `auto` marks what the billing run suspended (only that it unsuspends). */
  async suspend(service: ServiceRow, options: { useModule?: boolean; reason?: string | null; auto?: boolean } = {}): Promise<void> {
    if (service.status !== 'active') throw transitionError('suspended', ['active'], service.status);
    if (options.useModule ?? true) await this.module.act(service, 'suspend');
    await this.update(service.id, { status: 'suspended', date_suspended: this.now, suspension_reason: options.reason ?? null, auto_suspended: options.auto ? 1 : 0 });
    await emitServiceEvent(this.ctx, 'Services.suspend', service.id);
    await this.tell(service, 'suspension');
  }

  async unsuspend(service: ServiceRow, useModule = true): Promise<void> {
    if (service.status !== 'suspended') throw transitionError('unsuspended', ['suspended'], service.status);
    if (useModule) await this.module.act(service, 'unsuspend');
    await this.update(service.id, { status: 'active', date_suspended: null, suspension_reason: null, auto_suspended: 0 });
    await emitServiceEvent(this.ctx, 'Services.unsuspend', service.id);
    await this.tell(service, 'unsuspension');
  }

  /** Cancels now: the module removes the service; the record keeps the date. */
  async cancel(service: ServiceRow, useModule = true, notify = false): Promise<void> {
    if (!['active', 'suspended', 'pending', 'in_review'].includes(service.status)) throw transitionError('canceled', ['active', 'suspended', 'pending', 'in_review'], service.status);
    if (useModule && ['active', 'suspended'].includes(service.status)) await this.module.act(service, 'cancel');
    await this.update(service.id, { status: 'canceled', date_canceled: this.now });
    await emitServiceEvent(this.ctx, 'Services.cancel', service.id);
    if (notify) await this.tell(service, 'cancellation');
  }

  /**
   * Schedules the cancellation for `at` (a future time; the billing run's Cancel Scheduled Services
   * carries it out then, through cancel above). A canceled service has nothing left to schedule.
   */
  async scheduleCancel(service: ServiceRow, at: string): Promise<void> {
    if (service.status === 'canceled') throw TallyError.invalid({ status: { transition: 'The service is already canceled.' } });
    await this.update(service.id, { date_canceled: at });
    await emitServiceEvent(this.ctx, 'Services.cancel', service.id);
  }

  /** Tells the module about a paid renewal. */
  async renew(service: ServiceRow): Promise<void> {
    if (!['active', 'suspended'].includes(service.status)) throw transitionError('renewed', ['active', 'suspended'], service.status);
    await this.module.act(service, 'renew');
  }

  changePackage(service: ServiceRow, newModuleSettings: string): Promise<void> {
    return this.module.changePackage(service, newModuleSettings);
  }

  private async update(serviceId: number, values: Record<string, unknown>): Promise<void> {
    await this.ctx.db.updateTable('services').set(values).where('id', '=', serviceId).execute();
  }
}
