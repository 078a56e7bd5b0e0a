import { Kysely } from 'kysely';
import { FieldErrors } from '../../../core/kernel/errors';
import { assertValid, is, RuleSet } from '../../../core/kernel/input-rules';
import { TallyError } from '../../../core/kernel/tally-error';
import { formatUtc, parseTimestamp } from '../../../core/kernel/timestamps';
import { CallInfo, HostRequest } from '../protocol';
import { hostDatabase } from './host-database';
import { HttpResponse, HttpRequestOptions } from './http';

export type Ask = (request: HostRequest) => Promise<unknown>;
type ModelProxy = Record<string, (params?: Record<string, unknown>) => Promise<any>>;

export interface ExtensionLog {
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

/**
 * What an extension's model receives (as its constructor argument, or `this.ctx` for a plain
 * object model): the caller's company and capabilities the host grants: its own tables (`db`),
 * the methods its manifest `uses` (`models`, `call`), its own settings, HTTP to the hosts its
 * manifest declares (`http`), a rate-limited logger. Each is a request the host checks.
 */
export class ExtensionContext {
  readonly companyId: number;
  readonly timezone: string;
  readonly caller: string;
  /** `ctx.models.clients.get({ client_id: 1 })`: a method the manifest `uses`, called as the calling company. */
  readonly models: Record<string, ModelProxy>;
  /** Common checks for rules: present, integer, decimal, email, oneOf([...]), lengthBetween(min, max). */
  readonly is = is;
  /** HTTP to the hosts the manifest declares in `hosts`, with the host's time-out and size limits. */
  readonly http: { fetch(url: string, options?: HttpRequestOptions): Promise<HttpResponse> };
  private database?: Kysely<any>;
  private cachedSettings?: Promise<Record<string, string>>;

  constructor(
    info: CallInfo,
    private readonly ask: Ask,
    private readonly dialect: 'sqlite' | 'postgres',
    readonly log: ExtensionLog,
    /** Validations started by this call; one never awaited still fails the call when it fails. */
    private readonly validations: Array<{ settled: Promise<void>; observed(): boolean }> = [],
  ) {
    this.companyId = info.companyId;
    this.timezone = info.timezone;
    this.caller = info.caller;
    this.models = modelProxies((model, method, params) => this.call(model, method, params));
    this.http = {
      fetch: (url, options = {}) => this.ask({ kind: 'http', url: String(url), method: options.method ?? 'GET', headers: options.headers ?? {}, body: options.body ?? null }) as Promise<HttpResponse>,
    };
  }

  /**
   * Checks vars against rules ({ field: [{ code, message, check }] }) and rejects with the 400 when
   * any fails. It is async (checks may query): `await` it. A forgotten `await` still fails the
   * call with that 400, and nothing the call wrote is kept.
   */
  assertValid = (vars: Record<string, unknown>, rules: RuleSet): Promise<void> => {
    const settled = assertValid(vars, rules);
    settled.catch(() => undefined);
    let observed = false;
    this.validations.push({ settled, observed: () => observed });
    // A thenable that notes being awaited: then an error the extension catches stays caught.
    const watched = {
      then: (ok?: (v: void) => unknown, fail?: (e: unknown) => unknown) => ((observed = true), settled.then(ok, fail)),
      catch: (fail?: (e: unknown) => unknown) => ((observed = true), settled.catch(fail)),
      finally: (done?: () => void) => ((observed = true), settled.finally(done)),
    };
    return watched as unknown as Promise<void>;
  };

  /** Kysely over the extension's own tables; the host scopes every row to the calling company. */
  get db(): Kysely<any> {
    return (this.database ??= hostDatabase(this.dialect, (node) => this.ask({ kind: 'query', node })));
  }

  /** Calls `<model>/<method>` with named parameters, as the API would (same checks, same errors). */
  call(model: string, method: string, params: Record<string, unknown> = {}): Promise<any> {
    return this.ask({ kind: 'model', model: String(model), method: String(method), params });
  }

  /** This extension's settings for the caller's company, secrets decrypted. */
  settings(): Promise<Record<string, string>> {
    return (this.cachedSettings ??= this.ask({ kind: 'settings' }) as Promise<Record<string, string>>);
  }

  /** The error to throw for a 400: `throw ctx.invalid({ field: { code: 'message' } })`. */
  invalid(errors: FieldErrors): TallyError {
    return TallyError.invalid(errors);
  }

  /** Now, as the API writes timestamps: UTC `YYYY-MM-DD hh:mm:ss`. */
  now(): string {
    return formatUtc(new Date());
  }

  /** A caller's timestamp as UTC text, or null when it is not one of the accepted shapes. */
  timestamp(text: string): string | null {
    const date = parseTimestamp(text, this.timezone);
    return date ? formatUtc(date) : null;
  }
}

function modelProxies(call: (model: string, method: string, params?: Record<string, unknown>) => Promise<unknown>): Record<string, ModelProxy> {
  return new Proxy({} as Record<string, ModelProxy>, {
    get: (_, model) =>
      typeof model !== 'string'
        ? undefined
        : new Proxy({} as ModelProxy, { get: (__, method) => (typeof method !== 'string' || method === 'then' ? undefined : (params?: Record<string, unknown>) => call(model, method, params)) }),
  });
}
