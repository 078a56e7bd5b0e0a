import { callable, ExtensionContext, object, shape, singleValue } from '../../../../host/extensions/kit';

const METHODS = ['bank_transfer', 'cheque', 'cash', 'money_order'];

const RECORD_VARS = shape.inputs({
  client_id: shape.int({ required: true, example: 1 }),
  amount: shape.money({ required: true, example: '10.00' }),
  currency: shape.string({ required: true, format: 'currency', example: 'USD' }),
  method: shape.string({ required: true, enum: METHODS, example: 'cheque' }),
  reference: shape.string({ required: true, description: 'The transfer or cheque number; each is recorded once.', example: '1001' }),
  date_received: shape.timestamp(),
  invoices: shape.listOf(shape.record({ invoice_id: shape.int(), amount: shape.money() }), { description: 'Invoices to apply it to, each with an optional amount.' }),
});

/**
 * Offline payments: staff record what arrived by bank transfer, cheque, cash or money order, and
 * it becomes a transaction of the billing core (applied to invoices when given, else credit).
 */
export class Payments {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({ verb: 'GET', returns: shape.string(), description: 'How clients pay this way: the instructions setting ("" when none is set).' })
  async instructions() {
    return (await this.ctx.settings()).instructions ?? '';
  }

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: RECORD_VARS,
    returns: shape.int({ description: 'The transaction id.' }),
    description:
      'Record a payment received offline: vars[client_id], vars[amount], vars[currency], vars[method] (bank_transfer, cheque, cash, money_order), vars[reference] (the transfer or cheque number; each is recorded once), optional vars[date_received] and vars[invoices][i][invoice_id] (with optional [amount]) to apply it to. Returns the transaction id.',
  })
  async record(vars: Record<string, unknown>) {
    await this.ctx.assertValid(vars, {
      method: [{ code: 'format', message: `The method must be one of: ${METHODS.join(', ')}.`, check: this.ctx.is.oneOf(METHODS) }],
      reference: [singleValue, { code: 'empty', message: 'Please enter the transfer or cheque number.', check: this.ctx.is.present }],
    });
    // The billing core checks the client, amount, currency, date and invoices, and answers their 400s.
    return this.ctx.models.transactions.add({
      vars: {
        client_id: vars.client_id,
        amount: vars.amount,
        currency: vars.currency,
        type: 'other',
        gateway: 'offline',
        reference: `${vars.method}:${String(vars.reference).trim()}`,
        ...(vars.date_received !== undefined ? { date_added: vars.date_received } : {}),
        ...(vars.invoices !== undefined ? { invoices: vars.invoices } : {}),
      },
    });
  }
}

export const models = { payments: Payments };
