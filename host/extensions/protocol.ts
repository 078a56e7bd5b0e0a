import { CallableSpec } from '../../core/kernel/callable';
import { FieldErrors } from '../../core/kernel/errors';

/**
 * What crosses between the host and an extension's sandbox (a V8 isolate). Everything crosses as
 * copied plain data: calls go in with bound arguments; the sandbox asks the host for whatever lives
 * there (its rows, declared core methods, its settings, declared HTTP hosts) and answers JSON text.
 */

export interface SandboxSetup {
  readonly extension: string;
  /** The module the bundle starts from: index.js, or a TypeScript extension's index.ts or compiled file. */
  readonly entry: string;
  /** The SQL dialect Kysely builds for inside the sandbox; the host compiles and runs the queries. */
  readonly dialect: 'sqlite' | 'postgres';
}

export interface ModelDescriptor {
  readonly model: string;
  readonly members: string[];
  readonly callables: CallableSpec[];
}

export interface Loaded {
  readonly models: ModelDescriptor[];
  readonly migrations: string[];
  /** The event types it exports handlers for (`exports.events`) and its task functions (`exports.tasks`). */
  readonly events: string[];
  readonly tasks: string[];
}

/** An event as a handler receives it (core/events/event-consumers.ts's OutboxEvent, company included). */
export interface HandledEvent {
  readonly id: string;
  readonly type: string;
  readonly companyId: number;
  readonly occurredAt: string;
  readonly payload: unknown;
}

/** Who is calling: the sandbox's per-call context is built from this. */
export interface CallInfo {
  readonly companyId: number;
  readonly timezone: string;
  readonly caller: string;
}

export type Task =
  | { kind: 'call'; model: string; method: string; args: unknown[] }
  | { kind: 'migrate'; direction: 'up' | 'down'; names: string[] }
  | { kind: 'hook'; hook: 'install' | 'uninstall' }
  /** `from` is the version the company had installed, `to` the one in the extensions directory. */
  | { kind: 'hook'; hook: 'upgrade'; from: string; to: string }
  /** A handler of `exports.events`, after the change committed. */
  | { kind: 'event'; event: HandledEvent }
  /** A function of `exports.tasks` at its due time (UTC `YYYY-MM-DD hh:mm:ss`). */
  | { kind: 'task'; task: string; due: string };

/** A failure crossing the boundary: a catalogued TallyError, or anything else (a 500). */
export type WireError = { tally: true; code: string; errors?: FieldErrors; response?: string } | { tally: false; message: string };

/** What the sandbox asks the host for during a call; the host checks every field (request-check.ts). */
export type HostRequest =
  | { kind: 'query'; node: unknown }
  | { kind: 'model'; model: string; method: string; params: Record<string, unknown> }
  | { kind: 'settings' }
  | { kind: 'http'; url: string; method: string; headers: Record<string, string>; body: string | null }
  | { kind: 'log'; level: 'info' | 'warn' | 'error'; message: string; data: string | null };
