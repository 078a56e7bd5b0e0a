/**
 * The extension author's kit: what a TypeScript extension imports. A plain JavaScript extension
 * needs none of it: it declares `static callable = {...}` itself and finds the helpers on `ctx`.
 * Everything here runs inside the sandbox, bundled with the extension.
 */
export { callable, ExtensionCallableOptions } from './callable';
export { any, bool, int, list, object, string } from '../../../core/kernel/parameter';
/** The shapes of what a method takes in `vars` and answers (`returns`), as core declares them: `shape.record({...})`. */
export * as shape from '../../../core/kernel/shape';
export { TallyError } from '../../../core/kernel/tally-error';
export { singleValue } from '../../../core/kernel/input-rules';
export { PAGE_SIZE, pageOffset } from '../../../core/kernel/paging';
export { idType } from '../../../core/db/migrations/id-column';
export { ExtensionContext, ExtensionLog } from './context';
export type { HttpRequestOptions, HttpResponse } from './http';
/** Base64 of bytes (a bare isolate has no btoa or Buffer): HTTP Basic credentials, for one. */
export { toBase64 } from './crypto';
export type { Kysely } from 'kysely';

/** An event a handler of `exports.events` receives: the change has committed; `payload` is the record as the API answers it. */
export interface ExtensionEvent<P = Record<string, unknown>> {
  readonly id: string;
  readonly type: string;
  readonly companyId: number;
  /** UTC, YYYY-MM-DD hh:mm:ss */
  readonly occurredAt: string;
  readonly payload: P;
}

/** What a function of `exports.tasks` is given: its name and the due time it runs for (UTC, YYYY-MM-DD hh:mm:ss). */
export interface TaskRun {
  readonly task: string;
  readonly due: string;
}

/** One step of an extension's schema: `up` creates, `down` drops what `up` made. */
export interface ExtensionMigration {
  up(db: import('kysely').Kysely<any>): Promise<unknown>;
  down(db: import('kysely').Kysely<any>): Promise<unknown>;
}
