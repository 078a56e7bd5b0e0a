import { Caller } from '../../core/credentials';
import { Installation } from '../../core/installation';
import { TallyError } from '../../core/kernel/tally-error';
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
  /** The client's address (HTTP). */
  readonly address?: string;
}

export interface ApiAnswer {
  readonly status: number;
  readonly format: Format;
  /** The document root for formats that need one: the model name. */
  readonly root: string;
  readonly body: Record<string, unknown>;
  readonly route?: Route;
  readonly caller?: Caller;
  /** The cause of a 500, for the log; never shown to the client. */
  readonly failure?: unknown;
}

/**
 * Answers a call in the contract's order: URL (404/415) → verb (405) → credentials (401) →
 * maintenance (503) → the one call path (model and method 404/403, authorisers 403, parameters 400,
 * the call 400/500) → 200.
 */
export async function dispatch(installation: Installation, call: ApiCall): Promise<ApiAnswer> {
  let route: Route | undefined;
  let caller: Caller | undefined;
  try {
    route = parseRoute(call.path);
    if (!(VERBS as readonly string[]).includes(call.verb)) throw new TallyError('method_not_allowed');
    caller = call.credentials ? ((await installation.authenticate(call.credentials.user, call.credentials.key)) ?? undefined) : undefined;
    if (!caller) throw new TallyError('unauthorized');
    if (await installation.inMaintenance()) throw new TallyError('maintenance');
    const response = await installation.call(route.model, route.method, () => call.params(), caller, { via: call.via, verb: call.verb, address: call.address });
    return { status: 200, format: route.format, root: route.model, body: { response: response ?? null }, route, caller };
  } catch (thrown) {
    const error = thrown instanceof TallyError ? thrown : new TallyError('internal');
    const format = thrown instanceof RouteError ? thrown.format : route?.format ?? defaultFormat;
    const root = route?.model ?? 'api';
    const failure = thrown instanceof TallyError ? undefined : thrown;
    return { status: error.status, format, root, body: error.body(), route, caller, failure };
  }
}
