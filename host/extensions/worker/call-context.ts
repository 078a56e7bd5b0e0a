import { Kysely } from 'kysely';
import { FieldErrors } from '../../../core/kernel/errors';
import { assertValid, is } from '../../../core/kernel/input-rules';
import { TallyError } from '../../../core/kernel/tally-error';
import { formatUtc, parseTimestamp } from '../../../core/kernel/timestamps';
import { CallInfo, HostRequest } from '../protocol';
import { hostDatabase } from './host-db';

export type Ask = (request: HostRequest) => Promise<unknown>;
type ModelProxy = Record<string, (params?: Record<string, unknown>) => Promise<any>>;

export interface ExtensionLog {
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

/**
 * What an extension's model receives (as its constructor argument, or `this.ctx` for a plain
 * object model): the caller's company, the call's database, the models of the installation, its
 * own settings, a logger. Nothing else of the host is reachable from the worker.
 */
export class ExtensionContext {
  readonly companyId: number;
  readonly timezone: string;
  readonly caller: string;
  /** `ctx.models.users.get({ user_id: 1 })`: a model call on the host, in this call's transaction. */
  readonly models: Record<string, ModelProxy>;
  /** Checks vars against rules ({ field: [{ code, message, check }] }) and throws the 400 when any fails. */
  readonly assertValid = assertValid;
  /** Common checks for rules: present, integer, decimal, email, oneOf([...]), lengthBetween(min, max). */
  readonly is = is;
  private database?: Kysely<any>;
  private cachedSettings?: Promise<Record<string, string>>;

  constructor(
    info: CallInfo,
    private readonly ask: Ask,
    private readonly dialect: 'sqlite' | 'postgres',
    readonly log: ExtensionLog,
  ) {
    this.companyId = info.companyId;
    this.timezone = info.timezone;
    this.caller = info.caller;
    this.models = modelProxies((model, method, params) => this.call(model, method, params));
  }

  /** Kysely over the installation's database, inside the call's transaction. */
  get db(): Kysely<any> {
    return (this.database ??= hostDatabase(this.dialect, this.ask));
  }

  /** Calls `<model>/<method>` with named parameters, as the API would (same checks, same errors). */
  call(model: string, method: string, params: Record<string, unknown> = {}): Promise<any> {
    return this.ask({ kind: 'model', model, method, params });
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
    get: (_, model) => (typeof model !== 'string' ? undefined : new Proxy({} as ModelProxy, { get: (__, method) => (typeof method !== 'string' || method === 'then' ? undefined : (params?: Record<string, unknown>) => call(model, method, params)) })),
  });
}
