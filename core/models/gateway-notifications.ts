import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { int } from '../kernel/parameter';
import { int as count, listOf, orFalse } from '../kernel/shape';
import { ModelCalls } from '../kernel/model-calls';
import { TallyError } from '../kernel/tally-error';
import { pageOffset } from '../billing/values';
import { findNotification } from '../payments/inbox';
import { paymentsDb } from '../payments/payment-tables';
import { processNotification } from '../payments/process-notification';
import { GATEWAY_NOTIFICATION, PROCESSED } from './gateway-notifications.fields';

const PAGE_SIZE = 25;

/**
 * The gateway inbox (docs/payments.md): every notification the company's gateway callbacks
 * received, refused and ignored ones too, with the gateway's verdict and the transaction it made
 * or why it made none; and processing one again. Another company's notifications read as not there.
 */
@model('gateway_notifications')
export class GatewayNotifications {
  constructor(
    private readonly ctx: CallContext,
    private readonly calls: ModelCalls,
  ) {}

  @callable({ description: "The company's notifications, newest first, 25 a page.", verb: 'GET', params: [int('page', { default: 1 })], returns: listOf(GATEWAY_NOTIFICATION) })
  async getList(page: number) {
    const rows = await paymentsDb(this.ctx.db)
      .selectFrom('gateway_notifications')
      .selectAll()
      .where('company_id', '=', this.ctx.companyId)
      .orderBy('id', 'desc')
      .limit(PAGE_SIZE)
      .offset(pageOffset(page, PAGE_SIZE))
      .execute();
    return rows.map(present);
  }

  @callable({ description: 'How many notifications the company has received.', verb: 'GET', params: [], returns: count() })
  async getListCount() {
    const row = await paymentsDb(this.ctx.db)
      .selectFrom('gateway_notifications')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('company_id', '=', this.ctx.companyId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  @callable({ description: 'One notification of the company; false when it has none of that id.', verb: 'GET', params: [int('notification_id')], returns: orFalse(GATEWAY_NOTIFICATION) })
  async get(notificationId: number) {
    const row = await findNotification(this.ctx.db, this.ctx.companyId, notificationId);
    return row ? present(row) : false;
  }

  @callable({
    description:
      "Process a kept notification (again): its gateway's validate judges it as received, and a payment is recorded once per gateway transaction id (a known one only updates its transaction). Answers the verdict, its reason and the transaction; a gateway that fails is a 400 naming it, with nothing changed.",
    verb: 'POST',
    params: [int('notification_id')],
    returns: PROCESSED,
    // The gateway may ask its processor before it answers: no transaction is held meanwhile (processNotification).
    ownsTransactions: true,
  })
  async reprocess(notificationId: number) {
    const row = await findNotification(this.ctx.db, this.ctx.companyId, notificationId);
    if (!row) throw TallyError.invalid({ notification_id: { exists: 'The company has no notification of this id.' } });
    if (row.body_bytes > Buffer.byteLength(row.body))
      throw TallyError.invalid({ notification_id: { truncated: 'The notification was refused as too large and only its beginning was kept: it cannot be processed.' } });
    return processNotification(this.ctx, this.calls, { ...row, id: Number(row.id) });
  }
}

function present(row: { headers: string; id: number; transaction_id: number | null } & Record<string, unknown>) {
  return { ...row, id: Number(row.id), headers: JSON.parse(row.headers), transaction_id: row.transaction_id === null ? null : Number(row.transaction_id) };
}
