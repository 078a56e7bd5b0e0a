import { CallContext } from '../../kernel/call-context';
import { ModelCalls } from '../../kernel/model-calls';
import { takeCoupon } from '../../billing/coupon-use';
import { forUpdate } from '../../billing/for-update';
import { TallyError } from '../../kernel/tally-error';
import { truthy } from '../../billing/values';
import { nextRenewDate, Period, prorataDate } from '../../billing/renew-dates';
import { writeFields } from '../../billing/service-fields';
import { requireService } from '../../billing/service-store';
import { readServiceVars } from './service-vars';
import { ServiceTransitions } from '../../billing/transitions';
import { mailServiceMoves } from '../../delivery/service-email';
import { chooseModuleRow } from '../../billing/module-row-choice';
import { isAfterProrataCutoff } from '../../billing/prorata-helpers';
import { readConfigOptions, writeServiceOptions } from '../../billing/config-options';

/**
 * services/add: checks, the package's quantity limits, the first renew date (the pro rata day when
 * the package has one — a term later past its cut-off day — else one term after the start; none for
 * one-time pricing), the coupon's
 * use, the service fields, its package options (configoptions[<option_id>]=<value>, checked
 * against the package's option groups), and — for a service added active with use_module — provisioning.
 */
export async function addService(ctx: CallContext, calls: ModelCalls, vars: Record<string, unknown>, now: string, notify = false): Promise<number> {
  const read = await readServiceVars(ctx.db, ctx.companyId, ctx.timezone, vars, false);
  const moduleRow = await chooseModuleRow(ctx.db, ctx.companyId, read.pricing?.module ?? null, vars);
  Object.assign(read.errors, moduleRow.errors);
  const options = read.pricing
    ? await readConfigOptions(
        ctx.db,
        ctx.companyId,
        {
          packageId: read.pricing.package_id,
          term: read.pricing.term,
          period: read.pricing.period,
          currency: (read.values.override_price ? read.values.override_currency : null) ?? read.pricing.currency,
        },
        vars.configoptions,
      )
    : { errors: {}, choices: [] };
  Object.assign(read.errors, options.errors);
  if (Object.keys(read.errors).length) throw TallyError.invalid(read.errors);
  const pricing = read.pricing!;
  const values = read.values;
  await checkLimits(ctx, pricing.package_id, values.client_id!, pricing.qty, pricing.client_qty);
  if (values.coupon_id) await takeCoupon(ctx, calls, values.coupon_id, pricing.package_id);
  if (values.status === 'suspended' || values.status === 'canceled') throw TallyError.invalid({ status: { format: 'A new service is pending, in_review or active.' } });
  const dateAdded = values.date_added ?? now;
  const period = pricing.period as Period;
  const prorata = pricing.prorata_day && ['month', 'year'].includes(period) ? prorataDate(dateAdded, pricing.prorata_day, ctx.timezone) : null;
  // Past the package's pro rata cut-off day the first period runs on a full term after the pro rata
  // date (billed as both: from-services.ts), as the reference's cut-off.
  const firstRenew = prorata && isAfterProrataCutoff(dateAdded, pricing.prorata_cutoff, ctx.timezone) ? nextRenewDate(prorata, pricing.term, period, ctx.timezone) : prorata;
  const dateRenews = values.date_renews !== undefined ? values.date_renews : (firstRenew ?? nextRenewDate(dateAdded, pricing.term, period, ctx.timezone));
  const status = values.status ?? 'pending';
  const row = await ctx.db
    .insertInto('services')
    .values({
      company_id: ctx.companyId,
      client_id: values.client_id!,
      pricing_id: pricing.id,
      parent_service_id: values.parent_service_id ?? null,
      package_group_id: values.package_group_id ?? null,
      coupon_id: values.coupon_id ?? null,
      qty: values.qty ?? 1,
      override_price: values.override_price ?? null,
      override_currency: values.override_price ? (values.override_currency ?? null) : null,
      // Stored pending until provisioned: activate() moves it on only when the module agreed.
      status: status === 'active' ? 'pending' : status,
      suspension_reason: null,
      auto_suspended: 0,
      date_added: dateAdded,
      date_renews: dateRenews,
      date_last_renewed: values.date_last_renewed ?? null,
      date_suspended: null,
      date_canceled: null,
      module_row_id: moduleRow.rowId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeFields(ctx.db, row.id, read.fields, ctx.systemKey);
  await writeServiceOptions(ctx.db, row.id, options.choices);
  if (status === 'active') {
    const useModule = vars.use_module === undefined ? true : truthy(vars.use_module);
    await new ServiceTransitions(ctx, calls, now, mailServiceMoves(ctx.db)).activate(await requireService(ctx.db, ctx.companyId, row.id), useModule, notify);
  }
  return row.id;
}

/**
 * A package's qty (services in all) and client_qty (per client) limits; cancelled services do not
 * count. The package row is locked first (PostgreSQL), so concurrent adds count one after another
 * and the last service in stock is sold once, not once per concurrent call.
 */
async function checkLimits(ctx: CallContext, packageId: number, clientId: number, qty: number | null, clientQty: number | null): Promise<void> {
  if ((qty === null || qty === undefined) && !clientQty) return;
  await forUpdate(ctx.db, ctx.db.selectFrom('packages').select('id').where('id', '=', packageId)).execute();
  const live = (client: number | null) => {
    let query = ctx.db
      .selectFrom('services')
      .innerJoin('pricings', 'pricings.id', 'services.pricing_id')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('pricings.package_id', '=', packageId)
      .where('services.status', '!=', 'canceled');
    if (client !== null) query = query.where('services.client_id', '=', client);
    return query.executeTakeFirstOrThrow().then((r) => Number(r.count));
  };
  if (qty !== null && qty !== undefined && (await live(null)) >= qty) throw TallyError.invalid({ pricing_id: { qty: 'The package is sold out.' } });
  if (clientQty !== null && clientQty !== undefined && clientQty > 0 && (await live(clientId)) >= clientQty)
    throw TallyError.invalid({ pricing_id: { client_qty: 'The client already has as many of this package as it allows.' } });
}
