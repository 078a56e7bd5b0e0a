import { CallableSpec } from '../../core/kernel/callable';
import { FieldErrors } from '../../core/kernel/errors';

/**
 * The messages between the host and an extension's worker. Everything crosses as structured
 * clones: calls go in with bound arguments, and the worker asks the host for whatever lives there
 * (queries on the call's transaction, core model calls, its settings).
 */

export interface WorkerSetup {
  readonly extension: string;
  readonly entry: string;
  /** The SQL dialect queries are compiled for inside the worker; they run on the host. */
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
}

/** Who is calling: the worker's per-call context is built from this. */
export interface CallInfo {
  readonly companyId: number;
  readonly timezone: string;
  readonly caller: string;
}

export type Task =
  | { kind: 'call'; model: string; method: string; args: unknown[] }
  | { kind: 'migrate'; direction: 'up' | 'down'; names: string[] }
  | { kind: 'hook'; hook: 'install' | 'uninstall' };

/** A failure crossing the boundary: a catalogued TallyError, or anything else (a 500). */
export type WireError = { tally: true; code: string; errors?: FieldErrors; response?: string } | { tally: false; message: string };

export type HostRequest =
  | { kind: 'query'; sql: string; parameters: unknown[] }
  | { kind: 'model'; model: string; method: string; params: Record<string, unknown> }
  | { kind: 'settings' };

export type ToWorker =
  | { type: 'run'; id: number; task: Task; info: CallInfo }
  | { type: 'answer'; id: number; ok: true; value: unknown }
  | { type: 'answer'; id: number; ok: false; error: WireError };

export type FromWorker =
  | { type: 'ready'; loaded: Loaded }
  | { type: 'load-error'; reason: string }
  | { type: 'done'; id: number; ok: true; value: unknown }
  | { type: 'done'; id: number; ok: false; error: WireError }
  | { type: 'request'; id: number; runId: number; request: HostRequest }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string; data?: unknown };
