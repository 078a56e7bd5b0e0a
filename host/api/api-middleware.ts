import Koa from 'koa';
import { Installation } from '../../core/installation';
import { TallyError } from '../../core/kernel/tally-error';
import { TrustPolicy } from '../../core/identity/policy';
import { Logger } from '../logger';
import { credentialsFromHeaders } from './credentials-from-headers';
import { corsHeaders, isCrossSite } from './cross-site';
import { dispatcher, VERBS } from './dispatch';
import { parseQueryString } from './parameters';
import { carriesBody, readBodyParameters } from './request-body';
import { requestIdFor } from './request-id';

/**
 * The HTTP face of `dispatch`: GET and DELETE read only the query string, POST and PUT only the
 * body. A GET or DELETE with a body is refused rather than silently ignored, the reference's
 * most confusing behaviour. Every answer carries `Request-Id` and `Cache-Control: no-store` (some
 * carry a new key). One log line per call: never a key, a password or a parameter value.
 */
export function apiMiddleware(installation: Installation, logger: Logger, policy: TrustPolicy): Koa.Middleware {
  const dispatch = dispatcher(installation);
  return async (ctx) => {
    const started = process.hrtime.bigint();
    const verb = ctx.method;
    const requestId = requestIdFor(ctx.headers['x-request-id']);
    ctx.set('Request-Id', requestId);
    ctx.set('Cache-Control', 'no-store');
    if (ctx.headers.origin !== undefined) ctx.set(corsHeaders(ctx.headers, policy.allowedOrigins));
    const idempotencyKey = ctx.headers['idempotency-key'];
    const answer = await dispatch({
      verb,
      path: ctx.path,
      credentials: credentialsFromHeaders(ctx.headers),
      via: 'http',
      address: ctx.ip,
      requestId,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
      // Not ctx.origin: in this Koa version it echoes the Origin header.
      crossSite: isCrossSite(ctx.headers, () => `${ctx.protocol}://${ctx.host}`, policy.allowedOrigins),
      params: async () => {
        if (verb === 'POST' || verb === 'PUT') return readBodyParameters(ctx);
        if (await carriesBody(ctx)) {
          throw TallyError.invalid({
            request_body: { valid: `${verb} parameters are read from the query string only; the request body would be ignored, so it is refused.` },
          });
        }
        return parseQueryString(ctx.querystring);
      },
    });
    // A body refused part-way (413, bad multipart) is left paused by its reader, and Node only
    // discards bodies nobody started reading: without this the keep-alive connection would hang.
    if (!ctx.req.complete) ctx.req.resume();
    ctx.status = answer.status;
    ctx.type = answer.format.contentType;
    // An answer echoes what callers stored (names, notes): a browser led to an API URL must not read it as HTML.
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = answer.format.render(answer.root, answer.body, answer.shape);
    if (answer.headers) ctx.set(answer.headers);
    if (answer.status === 405) ctx.set('Allow', VERBS.join(', '));
    if (answer.status === 401) ctx.set('WWW-Authenticate', 'Basic realm="Tally API", charset="UTF-8"');
    // The line is built only for a logger that writes it (failures always are).
    if (!answer.failure && !logger.isLevelEnabled('info')) return;
    const entry = {
      model: answer.route?.model,
      method: answer.route?.method,
      format: answer.format.token,
      verb,
      status: answer.status,
      ms: Number(process.hrtime.bigint() - started) / 1e6,
      api_user: answer.caller?.user,
      request_id: requestId,
      ip: ctx.ip,
    };
    if (answer.failure) logger.error({ ...entry, err: answer.failure }, 'api call failed');
    else logger.info(entry, 'api call');
  };
}
