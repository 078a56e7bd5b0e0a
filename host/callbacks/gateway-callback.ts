import Koa from 'koa';
import { config } from '../../core/config';
import { Installation } from '../../core/installation';
import { Caller } from '../../core/kernel/caller';
import { ERRORS } from '../../core/kernel/errors';
import { TallyError } from '../../core/kernel/tally-error';
import { keepNotification, recordVerdict } from '../../core/payments/inbox';
import { maskHeaders } from '../../core/payments/masked-headers';
import { Logger } from '../logger';
import { NAME_PATTERN } from '../extensions/manifest';
import { CallbackRate } from './callback-rate';
import { readCappedBody } from './capped-body';

/** `/callback/gw/<company>/<gateway>/` (non-merchant) and `/callback/mgw/<company>/<gateway>/` (merchant); the final slash is optional. */
export const CALLBACK_PATH = /^\/callback\/(gw|mgw)\/([^/]+)\/([^/]+)\/?$/;

/** Larger than any processor's notification (Stripe's events are a few KiB); the inbox keeps this much of a larger one. */
export const CALLBACK_BODY_CAP = 64 * 1024;

export interface CallbackOptions {
  /** Notifications one address may send per minute in this process (TALLY_CALLBACK_RATE_LIMIT; 0: no limit). */
  readonly perMinute?: number;
}

/**
 * The gateways' callbacks: no API credentials (the gateway's own `validate` proves a notification);
 * every notification is kept in the inbox before anything else, then processed through the call
 * path as its company (`gateway_notifications/reprocess`, via `callback`, so its events and audit
 * happen as for any call). The processor always gets a fast, plain answer: 200 when it was taken
 * (recorded, ignored, a duplicate, or kept for staff after a gateway failure), 400 when refused as
 * not genuine or malformed, 413 when too large, 429 over the rate, 503 with Retry-After while the
 * database is unavailable (the processor sends it again), and for a company or gateway
 * that is not there (or not enabled, or of the other kind) the same 404 as any unknown path, so
 * nothing about companies or gateways can be learnt from it.
 */
export function gatewayCallback(installation: Installation, logger: Logger, options: CallbackOptions = {}): Koa.Middleware {
  const perMinute = options.perMinute ?? config().callbackRateLimit;
  const rate = perMinute > 0 ? new CallbackRate(perMinute, 60_000) : null;
  return async (ctx) => {
    const match = CALLBACK_PATH.exec(ctx.path);
    if (!match || !['POST', 'GET'].includes(ctx.method)) return notFound(ctx);
    if (rate && !rate.take(ctx.ip)) return answer(ctx, 429, { received: false, message: 'Too many notifications; try again later.' });
    const kind = match[1] === 'mgw' ? 'merchant' : 'nonmerchant';
    const companyId = /^[1-9]\d{0,9}$/.test(match[2]) ? Number(match[2]) : null;
    const gateway = match[3];
    if (companyId === null || companyId > 2_147_483_647 || !NAME_PATTERN.test(gateway)) return notFound(ctx);
    const enabled = await isEnabled(installation, companyId, gateway, kind);
    if (enabled === 'unavailable') return retryLater(ctx);
    if (!enabled) return notFound(ctx);
    const receivedAt = new Date();
    const body = await readCappedBody(ctx.req, CALLBACK_BODY_CAP);
    const received = {
      companyId,
      gateway,
      kind,
      receivedAt,
      method: ctx.method,
      query: ctx.querystring.slice(0, 8192),
      headers: maskHeaders(ctx.req.headers),
      body: body.bytes.toString('utf8'),
      bodyBytes: body.size,
    } as const;
    if (body.overCap) {
      await keepNotification(installation.db, received, 'refused', `The body is ${body.size} bytes, over the ${CALLBACK_BODY_CAP} a notification may have; only its beginning was kept.`);
      return answer(ctx, 413, { received: false, message: ERRORS.payload_too_large.message });
    }
    let id: number;
    try {
      id = await keepNotification(installation.db, received);
    } catch (error) {
      logger.error({ err: error, gateway, companyId }, 'gateway notification could not be kept');
      return retryLater(ctx);
    }
    const caller: Caller = { companyId, user: `gateway:${gateway}` };
    try {
      const outcome = (await installation.call('gateway_notifications', 'reprocess', { notification_id: id }, caller, { via: 'callback', verb: 'POST', address: ctx.ip })) as { verdict: string };
      if (outcome.verdict === 'refused') return answer(ctx, 400, { received: false });
      return answer(ctx, 200, { received: true });
    } catch (error) {
      const reason = error instanceof TallyError && error.status === 400 ? firstMessage(error) : 'The notification could not be processed; it is kept for staff to process again.';
      if (!(error instanceof TallyError && error.status === 400)) logger.error({ err: error, notification: id, gateway, companyId }, 'gateway notification failed');
      await recordVerdict(installation.db, id, 'failed', reason).catch(() => undefined);
      // The database gone for a moment: the processor sends it again later (Stripe and PayPal retry a
      // 5xx for days), and exactly-once processing makes one payment of however many arrive.
      if (unavailable(error)) return retryLater(ctx);
      // Kept in the inbox for staff: telling the processor to retry a gateway's failure would only repeat it.
      return answer(ctx, 200, { received: true });
    }
  };
}

/**
 * Whether the company has this gateway installed and enabled, of this kind, asked through the call
 * path as the company; 'unavailable' while the database cannot say (a 404 then would tell the
 * processor the address is wrong).
 */
async function isEnabled(installation: Installation, companyId: number, gateway: string, kind: 'merchant' | 'nonmerchant'): Promise<boolean | 'unavailable'> {
  const method = kind === 'merchant' ? 'getInstalledMerchant' : 'getInstalledNonmerchant';
  try {
    const found = await installation.call('gateway_manager', method, { company_id: companyId, gateway_name: gateway }, { companyId, user: `gateway:${gateway}` });
    return !!found;
  } catch (error) {
    return unavailable(error) ? 'unavailable' : false;
  }
}

/** A failure of the database (or maintenance), not of the notification: worth the processor's retry. */
function unavailable(error: unknown): boolean {
  return error instanceof TallyError && error.status === 503;
}

/** 503 with Retry-After: processors retry a notification they could not deliver. */
function retryLater(ctx: Koa.Context): void {
  ctx.set('Retry-After', '60');
  answer(ctx, 503, { received: false, message: ERRORS.database_unavailable.message });
}

function firstMessage(error: TallyError): string {
  const body = error.body() as { message?: string; errors?: Record<string, Record<string, string>> };
  const first = Object.values(body.errors ?? {}).flatMap((rules) => Object.values(rules))[0];
  return first ?? body.message ?? 'The notification could not be processed.';
}

function answer(ctx: Koa.Context, status: number, body: Record<string, unknown>): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(body);
}

function notFound(ctx: Koa.Context): void {
  answer(ctx, 404, { message: ERRORS.not_found.message });
}
