import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { ModelCalls } from '../../kernel/model-calls';
import { int, string } from '../../kernel/parameter';
import { orNull, string as text } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { callGateway } from '../../billing/gateway-answers';

/**
 * The reference's client reference: the id a gateway knows a client by (Stripe's Customer), which
 * its accounts under that gateway share. Tally keeps it where the gateway keeps it, so it is the
 * gateway's to answer (`<gateway>.tokens/clientReference`, optional in the merchant contract).
 */
@facet('accounts')
export class ClientReference {
  constructor(
    private readonly ctx: CallContext,
    private readonly calls: ModelCalls,
  ) {}

  // Declared POST though it changes nothing: it asks the gateway, whose own reads run in the
  // call's transaction, and a call declared GET has none on PostgreSQL (its read connections).
  @callable({
    verb: 'POST',
    params: [int('client_id'), int('gateway_id'), string('status', { default: null }), string('type', { default: null })],
    returns: orNull(text()),
    description:
      "The id the gateway gateway_id (installed for the company) knows the company's client by, when the client has an account with it (of that status, active or inactive, and type, cc or ach, when given) and the gateway answers one (tokens/clientReference); else null.",
  })
  async getClientReferenceId(clientId: number, gatewayId: number, status: string | null, type: string | null) {
    if (status !== null && !['active', 'inactive'].includes(status)) throw TallyError.invalid({ status: { valid: 'The status must be active or inactive.' } });
    if (type !== null && !['cc', 'ach'].includes(type)) throw TallyError.invalid({ type: { valid: 'The type must be cc or ach.' } });
    const gateway = await this.ctx.db
      .selectFrom('extensions_installed')
      .select('name')
      .where('id', '=', gatewayId)
      .where('company_id', '=', this.ctx.companyId)
      .where('type', '=', 'gateway')
      .executeTakeFirst();
    if (!gateway) return null;
    let accounts = this.ctx.db.selectFrom('accounts').select('id').where('company_id', '=', this.ctx.companyId).where('client_id', '=', clientId).where('gateway', '=', gateway.name);
    if (status !== null) accounts = accounts.where('status', '=', status);
    if (type !== null) accounts = accounts.where('type', '=', type);
    if (!(await accounts.executeTakeFirst())) return null;
    if (!(await this.calls.available(this.ctx, `${gateway.name}.tokens`, 'clientReference'))) return null;
    const answer = await callGateway(this.ctx, this.calls, gateway.name, 'clientReference', { vars: { client_id: clientId } }, "tell the client's reference");
    return typeof answer === 'string' && answer.trim() !== '' ? answer.trim().slice(0, 255) : null;
  }
}
