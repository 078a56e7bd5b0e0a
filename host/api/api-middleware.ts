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
    // The request and response themselves, not ctx's delegating getters and setters: this runs on
    // every call, and each delegated access is one more function hop. The headers every answer
    // carries are set on Node's response directly: Koa's set() builds three arrays per header.
    const { request, response, res } = ctx;
    const headers = ctx.req.headers;
    const verb = request.method;
    const requestId = requestIdFor(headers['x-request-id']);
    res.setHeader('Request-Id', requestId);
    res.setHeader('Cache-Control', 'no-store');
    if (headers.origin !== undefined) response.set(corsHeaders(headers, policy.allowedOrigins));
    const idempotencyKey = headers['idempotency-key'];
    const answer = await dispatch({
      verb,
      path: request.path,
      credentials: credentialsFromHeaders(headers),
      via: 'http',
      address: request.ip,
      requestId,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
      // Not ctx.origin: in this Koa version it echoes the Origin header.
      crossSite: isCrossSite(headers, () => `${request.protocol}://${request.host}`, policy.allowedOrigins),
      params: async () => {
        if (verb === 'POST' || verb === 'PUT') return readBodyParameters(ctx);
        if (await carriesBody(ctx)) {
          throw TallyError.invalid({
            request_body: { valid: `${verb} parameters are read from the query string only; the request body would be ignored, so it is refused.` },
          });
        }
        return parseQueryString(request.querystring);
      },
    });
    // A body refused part-way (413, bad multipart) is left paused by its reader, and Node only
    // discards bodies nobody started reading: without this the keep-alive connection would hang.
    if (!ctx.req.complete) ctx.req.resume();
    response.status = answer.status;
    setContentType(response, answer.format.contentType);
    // An answer echoes what callers stored (names, notes): a browser led to an API URL must not read it as HTML.
    res.setHeader('X-Content-Type-Options', 'nosniff');
    response.body = answer.format.render(answer.root, answer.body, answer.shape);
    if (answer.headers) response.set(answer.headers);
    if (answer.status === 405) response.set('Allow', VERBS.join(', '));
    if (answer.status === 401) response.set('WWW-Authenticate', 'Basic realm="Tally API", charset="UTF-8"');
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
      ip: request.ip,
    };
    if (answer.failure) logger.error({ ...entry, err: answer.failure }, 'api call failed');
    else logger.info(entry, 'api call');
  };
}

/** Each format's Content-Type header as Koa writes it for `response.type` (the charset added), by its type. */
const contentTypeHeaders = new Map<string, string>();

/**
 * `response.type = contentType`, with Koa's work done once per format: its setter looks the type
 * up in the MIME database and appends the charset on every call. The header Koa wrote the first
 * time is the one written from then on.
 */
function setContentType(response: Koa.Response, contentType: string): void {
  const header = contentTypeHeaders.get(contentType);
  if (header !== undefined) {
    response.res.setHeader('Content-Type', header);
    return;
  }
  response.type = contentType;
  const written = response.get('Content-Type');
  if (written) contentTypeHeaders.set(contentType, written);
}
