import { sql } from 'kysely';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { int, object, string } from '../kernel/parameter';
import { listOf, nothing, orFalse, record, string as text, int as count } from '../kernel/shape';
import { TallyError } from '../kernel/tally-error';
import { systemEncrypt } from '../kernel/system-cipher';
import { formatUtc, parseTimestamp } from '../kernel/timestamps';
import { SettingsStore } from '../settings-store';
import { isEventName } from '../events/event-names';
import { eventsDb, WebhookEndpointsTable } from '../events/event-tables';
import { newWebhookSecret } from '../events/webhook-signature';
import { pageOffset } from '../billing/values';
import { ATTEMPT, DELIVERY, WEBHOOK, WEBHOOK_ADD, WEBHOOK_EDIT, WEBHOOK_WITH_SECRET } from './events.fields';
import { deliveryQuery, presentDelivery } from '../events/delivery-listing';
import { urlProblem } from './webhooks/endpoint-url';
import { isEventId } from '../events/event-id';
import { endpointChanges } from '../events/endpoint-changes';

const PAGE_SIZE = 25;
const DESCRIPTION_MAX = 255;

type EndpointRow = Pick<WebhookEndpointsTable, 'url' | 'description' | 'event_types' | 'status' | 'disabled_reason' | 'previous_until' | 'date_added' | 'date_updated'> & {
  id: number;
  company_id: number;
};
const SHOWN = ['id', 'company_id', 'url', 'description', 'event_types', 'status', 'disabled_reason', 'previous_until', 'date_added', 'date_updated'] as const;

/**
 * The company's webhook endpoints and their deliveries (docs/events.md). Each endpoint receives the
 * event types it names (or all), signed as Standard Webhooks 1.0 with its secret, which is shown
 * once, stored encrypted with the system key, and rotated with an overlap during which both sign.
 * Every query is the caller's company's own: another company's endpoints, deliveries and events
 * read as not there.
 */
@model('webhooks')
export class Webhooks {
  constructor(
    private readonly ctx: CallContext,
    private readonly settings: SettingsStore,
  ) {}

  private get db() {
    return eventsDb(this.ctx.db);
  }

  @callable({
    description:
      'Add an endpoint: vars[url] (https://, reaching a public address), vars[event_types][] (none: every type), vars[description]. Answers the endpoint with its signing secret (whsec_...), shown this once.',
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: WEBHOOK_ADD,
    returns: WEBHOOK_WITH_SECRET,
  })
  async add(vars: Record<string, unknown>) {
    const fields = await this.checked(vars, true);
    const secret = newWebhookSecret();
    const now = formatUtc(new Date());
    const row = await this.db
      .insertInto('webhook_endpoints')
      .values({
        company_id: this.ctx.companyId,
        url: fields.url!,
        description: fields.description ?? null,
        event_types: fields.event_types ?? '',
        status: 'enabled',
        disabled_reason: null,
        secret: systemEncrypt(secret, this.ctx.systemKey),
        previous_secret: null,
        previous_until: null,
        date_added: now,
        date_updated: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ...(await this.get(Number(row.id))), secret };
  }

  @callable({
    description: 'Change an endpoint: vars[url], vars[event_types][], vars[description], vars[status] (enabled, disabled). Answers the endpoint.',
    verb: 'PUT',
    params: [int('webhook_id'), object('vars')],
    vars: WEBHOOK_EDIT,
    returns: WEBHOOK,
  })
  async edit(webhookId: number, vars: Record<string, unknown>) {
    await this.endpoint(webhookId);
    const fields = await this.checked(vars, false);
    const changes: Record<string, string | null> = { ...fields, date_updated: formatUtc(new Date()) };
    if (fields.status === 'disabled') changes.disabled_reason = 'staff';
    if (fields.status === 'enabled') changes.disabled_reason = null;
    await this.db.updateTable('webhook_endpoints').set(changes).where('id', '=', webhookId).where('company_id', '=', this.ctx.companyId).execute();
    this.changedAfterCommit();
    return this.get(webhookId);
  }

  @callable({ description: 'Delete an endpoint: its pending deliveries are not sent, and its delivery log goes with it.', verb: 'DELETE', params: [int('webhook_id')], returns: nothing() })
  async delete(webhookId: number) {
    await this.endpoint(webhookId);
    const deliveries = this.db.selectFrom('event_deliveries').select('id').where('kind', '=', 'webhook').where('target', '=', String(webhookId)).where('company_id', '=', this.ctx.companyId);
    await this.db.deleteFrom('event_attempts').where('delivery_id', 'in', deliveries).execute();
    await this.db.deleteFrom('event_deliveries').where('kind', '=', 'webhook').where('target', '=', String(webhookId)).where('company_id', '=', this.ctx.companyId).execute();
    await this.db.deleteFrom('webhook_endpoints').where('id', '=', webhookId).where('company_id', '=', this.ctx.companyId).execute();
    this.changedAfterCommit();
    return null;
  }

  /** This process's delivery worker reads endpoints again once the change committed (endpoint-changes.ts). */
  private changedAfterCommit(): void {
    if (this.ctx.afterCommit) this.ctx.afterCommit.push(async () => endpointChanges.bump());
    else endpointChanges.bump();
  }

  @callable({ description: 'One endpoint of the company with its health (never its secret); false when it has none of that id.', verb: 'GET', params: [int('webhook_id')], returns: orFalse(WEBHOOK) })
  async get(webhookId: number) {
    const row = await this.db.selectFrom('webhook_endpoints').select(SHOWN).where('id', '=', webhookId).where('company_id', '=', this.ctx.companyId).executeTakeFirst();
    return row ? { ...present(row as EndpointRow), health: await this.health(webhookId) } : false;
  }

  @callable({ description: "The company's endpoints with their health, never their secrets.", verb: 'GET', returns: listOf(WEBHOOK) })
  async getList() {
    const rows = await this.db.selectFrom('webhook_endpoints').select(SHOWN).where('company_id', '=', this.ctx.companyId).orderBy('id').execute();
    return Promise.all(rows.map(async (row) => ({ ...present(row as EndpointRow), health: await this.health(Number(row.id)) })));
  }

  @callable({
    description:
      'Give an endpoint a new signing secret, answered this once. The old one keeps signing beside it for overlap_hours (default 24, at most 168; 0 ends it at once), so a receiver can switch without losing a delivery.',
    verb: 'POST',
    params: [int('webhook_id'), int('overlap_hours', { default: 24 })],
    returns: record({ id: count(), secret: text(), rotating_until: text({ nullable: true, format: 'timestamp' }) }),
  })
  async rotateSecret(webhookId: number, overlapHours: number) {
    const endpoint = await this.endpoint(webhookId);
    if (overlapHours < 0 || overlapHours > 168) throw TallyError.invalid({ overlap_hours: { valid: 'Please give a whole number of hours from 0 to 168.' } });
    const secret = newWebhookSecret();
    const until = overlapHours > 0 ? formatUtc(new Date(Date.now() + overlapHours * 3_600_000)) : null;
    await this.db
      .updateTable('webhook_endpoints')
      .set({ secret: systemEncrypt(secret, this.ctx.systemKey), previous_secret: until ? endpoint.secret : null, previous_until: until, date_updated: formatUtc(new Date()) })
      .where('id', '=', webhookId)
      .where('company_id', '=', this.ctx.companyId)
      .execute();
    this.changedAfterCommit();
    return { id: webhookId, secret, rotating_until: until };
  }

  @callable({
    description: "One page (25) of an endpoint's deliveries, newest first, optionally of one status (pending, delivered, dead).",
    verb: 'GET',
    params: [int('webhook_id'), string('status', { default: null }), int('page', { default: 1 })],
    returns: listOf(DELIVERY),
  })
  async getDeliveries(webhookId: number, status: string | null, page: number) {
    await this.endpoint(webhookId);
    let query = deliveryQuery(this.db, this.ctx.companyId).where('d.kind', '=', 'webhook').where('d.target', '=', String(webhookId));
    if (status !== null) query = query.where('d.status', '=', status);
    return (await query.orderBy('d.id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute()).map(presentDelivery);
  }

  @callable({
    description: "One page (25) of the company's dead deliveries (retries exhausted, or parked), newest first: what resend can send again.",
    verb: 'GET',
    params: [int('page', { default: 1 })],
    returns: listOf(DELIVERY),
  })
  async getDead(page: number) {
    const rows = await deliveryQuery(this.db, this.ctx.companyId).where('d.status', '=', 'dead').orderBy('d.id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map(presentDelivery);
  }

  @callable({
    description: 'Every attempt at one delivery of the company: when, how long, the status and the first bytes of the answer.',
    verb: 'GET',
    params: [int('delivery_id')],
    returns: listOf(ATTEMPT),
  })
  async getAttempts(deliveryId: number) {
    const rows = await this.db
      .selectFrom('event_attempts')
      .select(['id', 'delivery_id', 'attempted_at', 'duration_ms', 'status', 'error', 'response'])
      .where('delivery_id', '=', deliveryId)
      .where('company_id', '=', this.ctx.companyId)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), delivery_id: Number(r.delivery_id), duration_ms: Number(r.duration_ms), status: r.status === null ? null : Number(r.status) }));
  }

  @callable({
    description: 'Send one delivery again (dead, delivered or retrying): it is tried at once, with a fresh round of retries and the same webhook-id. Answers how many deliveries were queued.',
    verb: 'POST',
    params: [int('delivery_id')],
    returns: count(),
  })
  async resend(deliveryId: number) {
    const count = await this.requeue((q) => q.where('id', '=', deliveryId));
    if (!count) throw TallyError.invalid({ delivery_id: { exists: 'The company has no delivery of that id.' } });
    return count;
  }

  @callable({ description: 'Send every webhook delivery of one event again. Answers how many were queued.', verb: 'POST', params: [string('event_id')], returns: count() })
  async resendEvent(eventId: string) {
    const count = !isEventId(eventId) ? 0 : await this.requeue((q) => q.where('event_id', '=', eventId).where('kind', '=', 'webhook'));
    if (!count) throw TallyError.invalid({ event_id: { exists: 'The company has no delivery of that event.' } });
    return count;
  }

  @callable({
    description: 'Send again every failed delivery of an endpoint (dead, or retrying) made since a time. Answers how many were queued.',
    verb: 'POST',
    params: [int('webhook_id'), string('since')],
    returns: count(),
  })
  async resendFailed(webhookId: number, since: string) {
    await this.endpoint(webhookId);
    const from = parseTimestamp(since, this.ctx.timezone);
    if (!from) throw TallyError.invalid({ since: { format: "Please give a time as YYYY-MM-DD hh:mm:ss (with a zone, or in the company's)." } });
    return this.requeue((q) =>
      q
        .where('kind', '=', 'webhook')
        .where('target', '=', String(webhookId))
        .where('date_added', '>=', formatUtc(from))
        .where((eb: any) => eb.or([eb('status', '=', 'dead'), eb.and([eb('status', '=', 'pending'), eb('attempts', '>', 0)])])),
    );
  }

  private async requeue(filter: (query: any) => any): Promise<number> {
    const query = this.db
      .updateTable('event_deliveries')
      .set({ status: 'pending', attempts: 0, next_attempt_at: Date.now(), lease_until: 0, lease_owner: null, date_done: null })
      .where('company_id', '=', this.ctx.companyId);
    const result = await filter(query).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  private async endpoint(webhookId: number) {
    const row = await this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', webhookId).where('company_id', '=', this.ctx.companyId).executeTakeFirst();
    if (!row) throw TallyError.invalid({ webhook_id: { exists: 'The company has no webhook endpoint of that id.' } });
    return row;
  }

  private async health(webhookId: number) {
    const since = formatUtc(new Date(Date.now() - 86_400_000));
    const counts = await this.db
      .selectFrom('event_deliveries')
      .select([
        sql<number>`sum(case when status = 'pending' then 1 else 0 end)`.as('pending'),
        sql<number>`sum(case when status = 'pending' and attempts > 0 then 1 else 0 end)`.as('retrying'),
        sql<number>`sum(case when status = 'dead' then 1 else 0 end)`.as('dead'),
        sql<number>`sum(case when status = 'delivered' and date_done >= ${since} then 1 else 0 end)`.as('delivered_24h'),
      ])
      .where('kind', '=', 'webhook')
      .where('target', '=', String(webhookId))
      .where('company_id', '=', this.ctx.companyId)
      .executeTakeFirstOrThrow();
    const last = await this.db
      .selectFrom('event_attempts')
      .innerJoin('event_deliveries', 'event_deliveries.id', 'event_attempts.delivery_id')
      .select(['event_attempts.attempted_at', 'event_attempts.status'])
      .where('event_deliveries.kind', '=', 'webhook')
      .where('event_deliveries.target', '=', String(webhookId))
      .where('event_deliveries.company_id', '=', this.ctx.companyId)
      .orderBy('event_attempts.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return {
      pending: Number(counts.pending ?? 0),
      retrying: Number(counts.retrying ?? 0),
      dead: Number(counts.dead ?? 0),
      delivered_24h: Number(counts.delivered_24h ?? 0),
      last_attempt: last?.attempted_at ?? null,
      last_status: last?.status == null ? null : Number(last.status),
    };
  }

  /** The columns vars sets, checked: a 400 naming each bad field, nothing written. */
  private async checked(vars: Record<string, unknown>, adding: boolean) {
    const errors: Record<string, Record<string, string>> = {};
    const fields: { url?: string; description?: string | null; event_types?: string; status?: string } = {};
    if (adding || vars.url !== undefined) {
      const [allowHttp, allowPrivate] = await Promise.all([this.settings.system('webhooks_allow_http', this.ctx.db), this.settings.system('webhooks_allow_private_addresses', this.ctx.db)]);
      const problem =
        vars.url === undefined || vars.url === ''
          ? { code: 'empty', message: "Please give the endpoint's URL." }
          : await urlProblem(vars.url, { allowHttp: allowHttp === 'true', allowPrivate: allowPrivate === 'true' });
      if (problem) errors.url = { [problem.code]: problem.message };
      else fields.url = String(vars.url);
    }
    if (vars.event_types !== undefined) {
      const given =
        vars.event_types === ''
          ? []
          : Array.isArray(vars.event_types)
            ? vars.event_types
            : typeof vars.event_types === 'object' && vars.event_types
              ? Object.values(vars.event_types)
              : [vars.event_types];
      const unknown = given.filter((t) => !isEventName(t));
      if (unknown.length) errors.event_types = { valid: `Not an event type (see events/getTypes): ${unknown.map(String).join(', ').slice(0, 200)}.` };
      else fields.event_types = [...new Set(given as string[])].join('\n');
    }
    if (vars.description !== undefined) {
      const description = vars.description === null ? '' : String(vars.description);
      if (typeof vars.description === 'object' && vars.description !== null) errors.description = { format: 'The description must be text.' };
      else if ([...description].length > DESCRIPTION_MAX || description.includes('\0')) errors.description = { length: `The description may be at most ${DESCRIPTION_MAX} characters long.` };
      else fields.description = description || null;
    }
    if (!adding && vars.status !== undefined) {
      if (vars.status !== 'enabled' && vars.status !== 'disabled') errors.status = { format: 'The status must be enabled or disabled.' };
      else fields.status = vars.status;
    }
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    return fields;
  }
}

function present(row: EndpointRow) {
  const { previous_until, event_types, ...rest } = row;
  const now = formatUtc(new Date());
  return {
    ...rest,
    id: Number(row.id),
    company_id: Number(row.company_id),
    event_types: event_types ? event_types.split('\n') : [],
    rotating_until: previous_until && previous_until > now ? previous_until : null,
  };
}
