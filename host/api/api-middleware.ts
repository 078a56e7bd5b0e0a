import Koa from 'koa';
import { Installation } from '../../core/installation';
import { TallyError } from '../../core/kernel/tally-error';
import { Logger } from '../logger';
import { credentialsFromHeaders } from './credentials-from-headers';
import { dispatch, VERBS } from './dispatch';
import { parseQueryString } from './parameters';
import { carriesBody, readBodyParameters } from './request-body';

/**
 * The HTTP face of `dispatch`: GET and DELETE read only the query string, POST and PUT only the
 * body. A GET or DELETE with a body is refused rather than silently ignored, the reference's
 * most confusing behaviour. One log line per call: never a key, a password or a parameter value.
 */
export function apiMiddleware(installation: Installation, logger: Logger): Koa.Middleware {
  return async (ctx) => {
    const started = process.hrtime.bigint();
    const verb = ctx.method;
    const answer = await dispatch(installation, {
      verb,
      path: ctx.path,
      credentials: credentialsFromHeaders(ctx.headers),
      via: 'http',
      address: ctx.ip,
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
    ctx.body = answer.format.render(answer.root, answer.body);
    if (answer.status === 405) ctx.set('Allow', VERBS.join(', '));
    if (answer.status === 401) ctx.set('WWW-Authenticate', 'Basic realm="Tally API", charset="UTF-8"');
    const entry = {
      model: answer.route?.model,
      method: answer.route?.method,
      format: answer.format.token,
      verb,
      status: answer.status,
      ms: Number(process.hrtime.bigint() - started) / 1e6,
      api_user: answer.caller?.user,
    };
    if (answer.failure) logger.error({ ...entry, err: answer.failure }, 'api call failed');
    else logger.info(entry, 'api call');
  };
}
