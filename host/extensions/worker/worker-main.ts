import { parentPort, workerData } from 'node:worker_threads';
import { idType } from '../../../core/db/migrations/id-column';
import { ERRORS } from '../../../core/kernel/errors';
import { TallyError } from '../../../core/kernel/tally-error';
import { CallInfo, FromWorker, HostRequest, Task, ToWorker, WireError, WorkerSetup } from '../protocol';
import { ExtensionContext, ExtensionLog } from './call-context';
import { ExtensionModule, readExtensionModule } from './declarations';

/**
 * The body of an extension's worker thread: loads the extension, says what it declares, then runs
 * the tasks the host sends. Whatever the extension does wrong stays in this thread; the host
 * answers the call with a 500 and, when this thread dies or hangs, starts another.
 */
const setup = workerData as WorkerSetup;
const port = parentPort!;
const asks = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
let nextAsk = 1;

const post = (message: FromWorker) => port.postMessage(message);
const log = (level: 'info' | 'warn' | 'error') => (message: string, data?: unknown) => post({ type: 'log', level, message: String(message), data: cloneable(data) });
const logger: ExtensionLog = { info: log('info'), warn: log('warn'), error: log('error') };

let extension: ExtensionModule;
try {
  extension = readExtensionModule(require(setup.entry));
  const loaded = { models: extension.descriptors, migrations: [...extension.migrations.keys()] };
  post({ type: 'ready', loaded });
  port.on('message', onMessage);
  // A forgotten promise must not take every in-flight call of this extension down with it.
  process.on('unhandledRejection', (reason) => logger.error(`Unhandled rejection: ${describe(reason)}`));
} catch (error) {
  post({ type: 'load-error', reason: describe(error) });
}

function onMessage(message: ToWorker): void {
  if (message.type === 'answer') {
    const pending = asks.get(message.id);
    asks.delete(message.id);
    if (message.ok) pending?.resolve(message.value);
    else pending?.reject(fromWire(message.error));
    return;
  }
  const { id, task, info } = message;
  perform(task, info, id).then(
    (value) => {
      try {
        post({ type: 'done', id, ok: true, value });
      } catch (error) {
        post({ type: 'done', id, ok: false, error: { tally: false, message: `The result cannot be sent back (${describe(error)}); return plain data.` } });
      }
    },
    (error) => post({ type: 'done', id, ok: false, error: toWire(error) }),
  );
}

async function perform(task: Task, info: CallInfo, runId: number): Promise<unknown> {
  const ask = (request: HostRequest) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextAsk++;
      asks.set(id, { resolve, reject });
      post({ type: 'request', id, runId, request });
    });
  const ctx = new ExtensionContext(info, ask, setup.dialect, logger);
  if (task.kind === 'call') {
    const model = extension.models.get(task.model);
    if (!model) throw new Error(`The model ${task.model} is no longer declared by the extension.`);
    const instance = model.create(ctx);
    if (typeof instance[task.method] !== 'function') throw new Error(`${task.model} has no method ${task.method}.`);
    return (instance[task.method] as (...args: unknown[]) => unknown)(...task.args);
  }
  if (task.kind === 'migrate') {
    for (const name of task.names) {
      const migration = extension.migrations.get(name);
      const step = task.direction === 'up' ? migration?.up : migration?.down;
      if (step) await step.call(migration, ctx.db, { idType: () => idType(ctx.db) });
      else if (task.direction === 'down') logger.warn(`The migration ${name} has no down(); its tables are left in place.`);
    }
    return null;
  }
  await extension[task.hook]?.(ctx);
  return null;
}

function toWire(error: unknown): WireError {
  const e = error as TallyError;
  if ((error instanceof TallyError || e?.name === 'TallyError') && e.code in ERRORS) return { tally: true, code: e.code, errors: e.errors, response: e.response };
  // The stack helps whoever reads the host's log; the API caller only ever sees the contract's 500.
  return { tally: false, message: error instanceof Error && error.stack ? error.stack : describe(error) };
}

function fromWire(error: WireError): Error {
  return error.tally ? new TallyError(error.code as keyof typeof ERRORS, error.errors, error.response) : new Error(error.message);
}

/** The reason, with the file and line of a syntax error (its stack starts with them, not the message). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const at = /^(\S+:\d+)\n/.exec(error.stack ?? '')?.[1];
  return `${error.name}: ${error.message}${at ? ` (at ${at})` : ''}`;
}

function cloneable(data: unknown): unknown {
  try {
    return data === undefined ? undefined : JSON.parse(JSON.stringify(data));
  } catch {
    return String(data);
  }
}
