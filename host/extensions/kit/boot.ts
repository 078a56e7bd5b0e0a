import { ERRORS } from '../../../core/kernel/errors';
import { idType } from '../../../core/db/migrations/id-column';
import { TallyError } from '../../../core/kernel/tally-error';
import { CallInfo, HostRequest, Task } from '../protocol';
import { askHost, setup, tellHost, WireError } from './bridge';
import { ExtensionContext, ExtensionLog } from './context';
import { ExtensionModule, readExtensionModule } from './declarations';
import { encodeResult } from './result-encoding';

/** Taken before any extension code runs, which may replace Date.now. */
const clock = Date.now;

/**
 * The sandbox side of an extension: each bundle ends by calling this with the extension's module.
 * It reads what the module declares and leaves two functions on the context's global object for
 * the host: `__tallyDescribe()` and `__tallyRun(token, task, info)`. Both answer plain data (JSON
 * text); the host checks whatever comes back, since extension code could have replaced them.
 */
export function boot(exported: unknown): void {
  let extension: ExtensionModule | undefined;
  let loadError: string | undefined;
  try {
    extension = readExtensionModule(exported);
  } catch (error) {
    loadError = describe(error);
  }
  const scope = globalThis as unknown as Record<string, unknown>;
  scope.__tallyDescribe = () => {
    if (!extension) return JSON.stringify({ error: loadError });
    return JSON.stringify({ models: extension.descriptors, migrations: [...extension.migrations.keys()], events: [...extension.events.keys()], tasks: [...extension.tasks.keys()] });
  };
  scope.__tallyRun = async (token: string, task: Task, info: CallInfo) => {
    try {
      if (!extension) throw new Error(loadError);
      const validations: Array<{ settled: Promise<void>; observed(): boolean }> = [];
      const ask = async (request: HostRequest) => {
        const answer = await askHost(token, request);
        if (answer.ok) return answer.value;
        throw fromWire(answer.error);
      };
      const ctx = new ExtensionContext(info, ask, setup.dialect, limitedLog(token), validations);
      const value = await perform(extension, task, ctx);
      // An assertValid the extension forgot to await still decides the call: nothing is kept.
      for (const v of validations) if (!v.observed()) await v.settled;
      return { ok: true, value: encodeResult(value, setup.resultBytes) };
    } catch (error) {
      return { ok: false, error: toWire(error) };
    }
  };
}

async function perform(extension: ExtensionModule, task: Task, ctx: ExtensionContext): Promise<unknown> {
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
      else if (task.direction === 'down') ctx.log.warn(`The migration ${name} has no down(); its tables are left in place.`);
    }
    return null;
  }
  if (task.kind === 'event') {
    const handler = extension.events.get(task.event.type);
    if (!handler) throw new Error(`No handler for ${task.event.type} in exports.events.`);
    await handler(ctx, task.event);
    return null;
  }
  if (task.kind === 'task') {
    const run = extension.tasks.get(task.task);
    if (!run) throw new Error(`No function for the task ${task.task} in exports.tasks.`);
    await run(ctx, { task: task.task, due: task.due });
    return null;
  }
  if (task.hook === 'upgrade') await extension.upgrade?.(ctx, task.from, task.to);
  else await extension[task.hook]?.(ctx);
  return null;
}

/** The logger: at most `logLinesPerSecond` lines a second leave the sandbox (the host limits again). */
function limitedLog(token: string): ExtensionLog {
  let second = 0;
  let sent = 0;
  const line = (level: 'info' | 'warn' | 'error') => (message: string, data?: unknown) => {
    const now = Math.floor(clock() / 1000);
    if (now !== second) [second, sent] = [now, 0];
    if (++sent > setup.logLinesPerSecond) return;
    tellHost(token, { kind: 'log', level, message: String(message).slice(0, 2000), data: dataText(data) });
  };
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

function dataText(data: unknown): string | null {
  if (data === undefined) return null;
  try {
    return String(JSON.stringify(data)).slice(0, 4000);
  } catch {
    return String(data).slice(0, 4000);
  }
}

function toWire(error: unknown): WireError {
  const e = error as TallyError;
  if ((error instanceof TallyError || e?.name === 'TallyError') && typeof e.code === 'string' && e.code in ERRORS) return { tally: true, code: e.code, errors: e.errors, response: e.response };
  // The stack helps whoever reads the host's log; the API caller only ever sees the contract's 500.
  const text = error instanceof Error && error.stack ? error.stack : describe(error);
  return { tally: false, message: String(text).slice(0, 4000) };
}

function fromWire(error: WireError): Error {
  return error.tally ? new TallyError(error.code as keyof typeof ERRORS, error.errors as never, error.response) : new Error(error.message);
}

/** The reason, with the file and line of a syntax error (its stack starts with them, not the message). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const at = /^(\S+:\d+)\n/.exec(error.stack ?? '')?.[1];
  return `${error.name}: ${error.message}${at ? ` (at ${at})` : ''}`;
}
