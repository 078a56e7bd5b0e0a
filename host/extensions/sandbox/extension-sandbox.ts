import { randomBytes } from 'node:crypto';
import ivm from 'isolated-vm';
import { TallyError } from '../../../core/kernel/tally-error';
import { Logger } from '../../logger';
import { CallInfo, HostRequest, Loaded, SandboxSetup, Task } from '../protocol';
import { SandboxLimits } from '../sandbox-limits';
import { runtimeBundle } from './bundle';
import { checkAnswer, checkLoaded, checkRequest, MalformedMessage } from './message-check';
import { LogLimiter } from './log-limiter';

/** A failure inside an extension (throw, crash, blown limit, malformed message): the API answers 500. */
export class ExtensionFailure extends Error {
  override name = 'ExtensionFailure';

  /** `reason` is the failure without the extension's name in front. */
  constructor(
    message: string,
    readonly reason = message,
  ) {
    super(message);
  }
}

/**
 * A failure the extension's own code threw: its text is the extension's (it may quote anything it
 * holds), so it goes to the host's log, never to an API caller. Every other ExtensionFailure is a
 * reason the host decided (a deadline, a memory limit, a malformed message) and can be named.
 */
export class ExtensionThrew extends ExtensionFailure {
  override name = 'ExtensionThrew';
}

const STALE_PER_SECOND = 100;

type Serve = (request: Exclude<HostRequest, { kind: 'log' }>) => Promise<unknown>;

interface Run {
  readonly companyId: number;
  readonly serve: Serve;
  /** Messages (requests and log lines) so far; past the limit the sandbox is restarted. */
  requests: number;
  fail(reason: string): void;
}

interface CompanyContext {
  readonly context: ivm.Context;
  readonly run: ivm.Reference<(token: string, task: Task, info: CallInfo) => Promise<unknown>>;
}

/** One isolate; replaced by a fresh one after it dies, hangs or misbehaves. */
interface Live {
  readonly isolate: ivm.Isolate;
  /** Messages this second, whatever their call: a flood (even of cheap ones) restarts the sandbox. */
  second: number;
  messages: number;
  /** Messages this second for calls that are over: a few from a forgotten promise, never a stream. */
  stale: number;
  /** The shared runtime, then the extension's own script. */
  readonly scripts: Promise<[ivm.Script, ivm.Script]>;
  readonly contexts: Map<number, Promise<CompanyContext>>;
  readonly runs: Map<string, Run>;
  loaded?: Promise<Loaded>;
  dead?: string;
}

/**
 * Runs one extension in a V8 isolate (isolated-vm): a heap of its own with a hard memory limit
 * (ArrayBuffers included), no Node.js, no require, no process, no file, socket or thread API,
 * running on its own thread so the host's event loop never runs extension code. Each company gets
 * its own context in that isolate, so one company's globals and prototypes are never another's.
 * The extension reaches the host only through one function, and every message through it is
 * checked here; a malformed one, a blown deadline or memory limit fails the call and restarts
 * the isolate.
 */
export class ExtensionSandbox {
  restarts = 0;
  private live?: Live;
  private closed = false;
  private readonly log: LogLimiter;

  constructor(
    private readonly setup: SandboxSetup,
    private readonly limits: SandboxLimits,
    private readonly logger: Logger,
    private readonly bundle: Promise<string>,
  ) {
    this.log = new LogLimiter(setup.extension, limits.logLinesPerSecond, logger);
  }

  /** What the extension declares; rejects with the reason when it cannot be loaded. */
  start(): Promise<Loaded> {
    if (this.closed) return Promise.reject(new ExtensionFailure(`The extension ${this.setup.extension} has been shut down.`));
    const live = (this.live ??= this.spawn());
    return (live.loaded ??= this.describe(live));
  }

  /** Memory of the current isolate, for diagnostics. */
  async heap(): Promise<{ used: number; limit: number }> {
    await this.start();
    const stats = await this.live!.isolate.getHeapStatistics();
    return { used: stats.used_heap_size + stats.externally_allocated_size, limit: stats.heap_size_limit };
  }

  async run(task: Task, info: CallInfo, serve: Serve): Promise<unknown> {
    await this.start();
    const live = this.live!;
    const token = randomBytes(16).toString('hex');
    return new Promise((resolve, reject) => {
      const finish = (settle: () => void) => {
        if (!live.runs.delete(token)) return;
        clearTimeout(timer);
        settle();
      };
      const fail = (reason: string) => finish(() => reject(new ExtensionFailure(`Extension ${this.setup.extension}: ${reason}.`, reason)));
      const timer = setTimeout(() => this.kill(live, `${describe(task)} did not finish within its ${this.limits.deadlineMs} ms deadline`), this.limits.deadlineMs);
      live.runs.set(token, { companyId: info.companyId, serve, requests: 0, fail });
      this.contextFor(live, info.companyId)
        .then((company) => company.run.apply(undefined, [token, task, info], { arguments: { copy: true }, result: { promise: true, copy: true }, timeout: this.limits.deadlineMs }))
        .then(
          (answer) => {
            try {
              const checked = checkAnswer(answer, this.limits.resultBytes);
              if (checked.ok) finish(() => resolve(checked.value));
              else if (checked.error instanceof TallyError) finish(() => reject(checked.error));
              else {
                // What it threw is for the operator: a caller answering 400 (a module's failed action) does not pass it on.
                this.logger.warn({ extension: this.setup.extension, task: describe(task), company: info.companyId, reason: checked.error.message }, 'extension call failed');
                finish(() => reject(new ExtensionThrew(`Extension ${this.setup.extension}: ${checked.error.message}`)));
              }
            } catch (error) {
              this.kill(live, (error as Error).message);
            }
          },
          (error: Error) => this.kill(live, `${describe(task)} failed in the sandbox: ${error.message}`),
        );
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const live = this.live;
    this.live = undefined;
    if (live) this.dispose(live, 'The host is shutting down.');
  }

  private spawn(): Live {
    const isolate = new ivm.Isolate({ memoryLimit: Math.max(8, this.limits.heapMb) });
    const scripts = Promise.all([
      runtimeBundle().then((code) => isolate.compileScript(code, { filename: 'tally:sandbox-runtime' })),
      this.bundle.then((code) => isolate.compileScript(code, { filename: `extension:${this.setup.extension}` })),
    ]);
    scripts.catch(() => undefined);
    return { isolate, scripts, contexts: new Map(), runs: new Map(), second: 0, messages: 0, stale: 0 };
  }

  private async describe(live: Live): Promise<Loaded> {
    const timer = setTimeout(() => this.kill(live, `It did not finish loading within ${this.limits.loadTimeoutMs} ms`), this.limits.loadTimeoutMs);
    try {
      const context = await this.newContext(live, 0);
      const describeRef = await context.context.global.get('__tallyDescribe', { reference: true });
      const text = await describeRef.apply(undefined, [], { result: { copy: true }, timeout: this.limits.loadTimeoutMs });
      context.context.release();
      return checkLoaded(text);
    } catch (error) {
      const reason = live.dead ?? (error as Error).message;
      this.dispose(live, reason);
      throw new ExtensionFailure(reason);
    } finally {
      clearTimeout(timer);
    }
  }

  private contextFor(live: Live, companyId: number): Promise<CompanyContext> {
    let context = live.contexts.get(companyId);
    if (context) {
      // Most recently used last: the first entry is the one to drop when there are too many.
      live.contexts.delete(companyId);
    } else {
      context = this.newContext(live, companyId);
      context.catch(() => undefined);
      if (live.contexts.size >= this.limits.contexts) {
        const [oldest, dropped] = live.contexts.entries().next().value!;
        live.contexts.delete(oldest);
        void dropped.then(
          (c) => c.context.release(),
          () => undefined,
        );
      }
    }
    live.contexts.set(companyId, context);
    return context;
  }

  /** A fresh context: the host's two functions and the setup on its global object, then the bundle. */
  private async newContext(live: Live, companyId: number): Promise<CompanyContext> {
    const [runtime, script] = await live.scripts;
    const context = await live.isolate.createContext();
    const global = context.global;
    // WebAssembly memory lives outside the isolate's heap and its limit (a 128 MB isolate could
    // hold gigabytes of it): extensions get no WebAssembly at all.
    await context.eval('delete globalThis.WebAssembly', { timeout: this.limits.loadTimeoutMs });
    await global.set('__tallyHost', new ivm.Reference((token: unknown, request: unknown) => this.answer(live, companyId, token, request)));
    await global.set(
      '__tallyRandom',
      new ivm.Reference((size: unknown) => {
        if (!this.withinRate(live)) throw new Error('Too many requests.');
        return new ivm.ExternalCopy(randomBytes(Number.isInteger(size) && (size as number) >= 0 && (size as number) <= 65536 ? (size as number) : 0)).copyInto();
      }),
    );
    await global.set('__tallySetup', new ivm.ExternalCopy({ dialect: this.setup.dialect, resultBytes: this.limits.resultBytes, logLinesPerSecond: this.limits.logLinesPerSecond }).copyInto());
    await runtime.run(context, { timeout: this.limits.loadTimeoutMs });
    await script.run(context, { timeout: this.limits.loadTimeoutMs });
    const run = await global.get('__tallyRun', { reference: true });
    if (run.typeof !== 'function') throw new ExtensionFailure('The sandbox did not start: the bundle left no entry point.');
    return { context, run };
  }

  /**
   * The host end of the sandbox's one function. It always answers { ok, value | error }; a
   * malformed request, a request for another company's call or too many requests fail the call
   * and restart the isolate. Logs are checked and rate-limited before reaching the host's log.
   */
  private async answer(live: Live, companyId: number, token: unknown, raw: unknown): Promise<unknown> {
    try {
      if (!this.withinRate(live)) return { ok: false, error: { tally: false, message: 'Too many requests.' } };
      if (typeof token !== 'string') throw new MalformedMessage('a request without its call');
      const request = checkRequest(raw);
      const run = live.runs.get(token);
      // A forgotten promise may still log or ask after its call ended: dropped, answered, forgiven.
      if (!run) {
        if (++live.stale > STALE_PER_SECOND) this.kill(live, `it kept sending messages for calls that are over (more than ${STALE_PER_SECOND} in one second)`);
        return request.kind === 'log' ? null : { ok: false, error: { tally: false, message: 'The call this request belongs to is over.' } };
      }
      if (run.companyId !== companyId) throw new MalformedMessage("a request for another company's call");
      if (++run.requests > this.limits.requestsPerCall) {
        this.kill(live, `it sent more than ${this.limits.requestsPerCall} messages in one call`);
        return { ok: false, error: { tally: false, message: 'Too many requests in one call.' } };
      }
      if (request.kind === 'log') return this.log.write(request);
      return { ok: true, value: await run.serve(request) };
    } catch (error) {
      if (error instanceof MalformedMessage) {
        this.kill(live, `it sent a malformed message (${error.message})`);
        return { ok: false, error: { tally: false, message: `Malformed message: ${error.message}` } };
      }
      if (error instanceof TallyError) return { ok: false, error: { tally: true, code: error.code, errors: error.errors, response: error.response } };
      return { ok: false, error: { tally: false, message: error instanceof Error ? error.message : String(error) } };
    }
  }

  /**
   * Every message costs the host's event loop a little, even one answered with a refusal: past
   * `requestsPerCall` messages in one second (from all its calls, finished ones included) the
   * sandbox is stopped, so a flood cannot slow core calls.
   */
  private withinRate(live: Live): boolean {
    const second = Math.floor(Date.now() / 1000);
    if (second !== live.second) [live.second, live.messages, live.stale] = [second, 0, 0];
    if (++live.messages <= this.limits.requestsPerCall * 4) return true;
    this.kill(live, `it sent more than ${this.limits.requestsPerCall * 4} messages in one second`);
    return false;
  }

  /** Ends an isolate that hangs, blew a limit or misbehaved; the next call starts a fresh one. */
  private kill(live: Live, reason: string): void {
    if (live.dead) return;
    live.dead = reason;
    if (this.live === live) {
      this.live = undefined;
      if (!this.closed) {
        this.restarts++;
        this.logger.warn({ extension: this.setup.extension, reason, restarts: this.restarts }, 'extension sandbox stopped; the next call starts a new one');
      }
    }
    this.dispose(live, reason);
  }

  private dispose(live: Live, reason: string): void {
    live.dead ??= reason;
    for (const run of [...live.runs.values()]) run.fail(reason);
    live.runs.clear();
    if (!live.isolate.isDisposed) live.isolate.dispose();
  }
}

function describe(task: Task): string {
  if (task.kind === 'call') return `The call ${task.model}/${task.method}`;
  if (task.kind === 'event') return `The handler of ${task.event.type}`;
  if (task.kind === 'task') return `The task ${task.task}`;
  return task.kind === 'hook' ? `The ${task.hook} hook` : `Its ${task.direction} migrations`;
}
