import { actsForInstallation, Caller } from '../../core/identity/credentials';
import { outcomeOf } from '../../core/call-path';
import { Installation } from '../../core/installation';
import { Shape } from '../../core/kernel/shape';
import { TallyError } from '../../core/kernel/tally-error';
import { CallGuard } from '../../core/trust/call-guard';
import { assembled } from '../assembled';
import { GivenCredentials } from './credentials-from-headers';
import { defaultFormat, Format } from './formats';
import { parseRoute, Route, RouteError } from './route';

export const VERBS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** One API call, whatever carried it (HTTP or the command line). */
export interface ApiCall {
  readonly verb: string;
  readonly path: string;
  readonly credentials: GivenCredentials | null;
  /** The parameters the verb allows (query for GET/DELETE, body for POST/PUT); throws a TallyError on bad input. */
  params(): Promise<Record<string, unknown>>;
  /** Over HTTP or from the command line's API form. */
  readonly via: 'http' | 'cli';
  /** The client's address (for lock-outs, allow lists, the audit log); absent on the command line. */
  readonly address?: string;
  readonly requestId?: string;
  /** The `Idempotency-Key` header of a write. */
  readonly idempotencyKey?: string;
  /** A browser request from another site (refused: it could carry remembered Basic credentials). */
  readonly crossSite?: boolean;
}

export interface ApiAnswer {
  readonly status: number;
  readonly format: Format;
  /** The document root for formats that need one: the model name. */
  readonly root: string;
  readonly body: Record<string, unknown>;
  /** What the method declares it answers, for a format that needs it (see Format.needsShape). */
  readonly shape?: Shape;
  readonly route?: Route;
  readonly caller?: Caller;
  /** The cause of a 500, for the log; never shown to the client. */
  readonly failure?: unknown;
  /** Headers the answer needs (Retry-After, Idempotent-Replayed). */
  readonly headers?: Record<string, string>;
}

/** Answers one API call (see `dispatcher`). */
export type Dispatch = (call: ApiCall) => Promise<ApiAnswer>;

/**
 * The transport's part of an API call, in the contract's order: URL (404/415) → verb (405) →
 * cross-site (403) → lock-out (429) → credentials (401) → rate (429) → maintenance (503; not for
 * installation credentials, which must be able to end it); then the one call path (core/call-path.ts)
 * answers: model and method (404/403), the credential's scope (403), Idempotency-Key (409, or the
 * stored answer), parameters (400), the call (400/500) → 200, with its hooks (the audit log among
 * them). Made once per installation: the guard is the one its composition root assembled.
 */
export function dispatcher(installation: Installation): Dispatch {
  const { guard } = assembled(installation);
  return (call) => answerCall(guard, installation, call);
}

async function answerCall(guard: CallGuard, installation: Installation, call: ApiCall): Promise<ApiAnswer> {
  let route: Route | undefined;
  let caller: Caller | undefined;
  try {
    route = parseRoute(call.path);
    if (!(VERBS as readonly string[]).includes(call.verb)) throw new TallyError('method_not_allowed');
    if (call.crossSite) throw new TallyError('forbidden');
    caller = await guard.authenticate(call.credentials, call.address);
    await guard.throttle(caller);
    if (!actsForInstallation(caller) && (await installation.inMaintenance())) throw new TallyError('maintenance');
    const key = call.idempotencyKey;
    const outcome = await installation.answer({
      model: route.model,
      method: route.method,
      params: call.params,
      caller,
      via: call.via,
      verb: call.verb,
      address: call.address,
      requestId: call.requestId,
      idempotency: key === undefined ? undefined : { key, path: call.path, credentialKey: call.credentials?.key ?? '' },
    });
    const shape = outcome.status === 200 && route.format.needsShape ? outcome.call?.spec.returns : undefined;
    const { status, body, failure, headers } = outcome;
    return { format: route.format, root: route.model, route, caller, status, body, failure, headers, ...(shape ? { shape } : {}) };
  } catch (thrown) {
    const format = thrown instanceof RouteError ? thrown.format : (route?.format ?? defaultFormat);
    const { status, body, failure, headers } = outcomeOf(thrown);
    return { format, root: route?.model ?? 'api', route, caller, status, body, failure, headers };
  }
}
