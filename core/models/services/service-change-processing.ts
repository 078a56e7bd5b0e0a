import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { ModelCalls } from '../../kernel/model-calls';
import { facet } from '../../kernel/model';
import { int } from '../../kernel/parameter';
import { bool } from '../../kernel/shape';
import { formatUtc } from '../../kernel/timestamps';
import { processChange } from './queued-change';

/**
 * Settling a queued change (service_changes): what the billing run's process_service_changes task
 * calls for each pending change whose invoice is paid or voided. A facet of the services model
 * (services.ts lists it), so this is `services/processChange`.
 */
@facet('services')
export class ServiceChangeProcessing {
  constructor(
    private readonly ctx: CallContext,
    private readonly calls: ModelCalls,
  ) {}

  @callable({
    returns: bool(),
    verb: 'POST',
    params: [int('service_change_id')],
    description:
      'Settle a queued change now, as the billing run does: applied when its invoice is paid (the service moved, the module told, Services.edit emitted), cancelled when it is voided. False when there is nothing to do (not pending, or its invoice still open).',
  })
  processChange(changeId: number) {
    return processChange(this.ctx, this.calls, changeId, formatUtc(new Date()));
  }
}
