import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { TallyError } from '../../core/kernel/tally-error';
import { Logger } from '../logger';
import { CallInfo, FromWorker, HostRequest, Loaded, Task, ToWorker, WireError, WorkerSetup } from './protocol';
import { SandboxLimits } from './sandbox-limits';

/** A failure inside an extension (throw, crash, blown deadline): the API answers it with a 500. */
export class ExtensionFailure extends Error {
  override name = 'ExtensionFailure';
}

type Serve = (request: HostRequest) => Promise<unknown>;

interface Run {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  serve: Serve;
  timer: NodeJS.Timeout;
}

/** One running thread; replaced by a fresh one after it dies. */
interface Live {
  readonly worker: Worker;
  readonly runs: Map<number, Run>;
  readonly loaded: Promise<Loaded>;
  ready: boolean;
  failure?: string;
}

const WORKER_MAIN = path.join(__dirname, 'worker', 'worker-main.js');

/**
 * Supervises one extension's worker thread: starts it with a heap limit, sends it tasks with a
 * deadline, serves its requests to the host, and when it throws at load, crashes, runs out of
 * memory or blows a deadline, answers the affected calls with a failure and lets the next call
 * start a new thread. The host's event loop never runs extension code.
 */
export class ExtensionWorker {
  restarts = 0;
  private live?: Live;
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly setup: WorkerSetup,
    private readonly limits: SandboxLimits,
    private readonly logger: Logger,
  ) {}

  /** What the extension declares; rejects with the reason when it cannot be loaded. */
  start(): Promise<Loaded> {
    if (this.closed) return Promise.reject(new ExtensionFailure(`The extension ${this.setup.extension} has been shut down.`));
    return (this.live ??= this.spawn()).loaded;
  }

  async run(task: Task, info: CallInfo, serve: Serve): Promise<unknown> {
    await this.start();
    const live = this.live!;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.kill(live, `${describe(task)} did not finish within its ${this.limits.deadlineMs} ms deadline`), this.limits.deadlineMs);
      live.runs.set(id, { resolve, reject, serve, timer });
      live.worker.postMessage({ type: 'run', id, task, info } satisfies ToWorker);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const live = this.live;
    this.live = undefined;
    if (live) await this.stop(live, 'The host is shutting down.');
  }

  private spawn(): Live {
    const worker = new Worker(WORKER_MAIN, {
      workerData: this.setup,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb, maxYoungGenerationSizeMb: Math.max(4, Math.ceil(this.limits.heapMb / 8)), stackSizeMb: 4 },
    });
    worker.unref();
    let settle!: { resolve(l: Loaded): void; reject(e: unknown): void };
    const loaded = new Promise<Loaded>((resolve, reject) => (settle = { resolve, reject }));
    loaded.catch(() => undefined);
    const live: Live = { worker, runs: new Map(), loaded, ready: false };
    const loadTimer = setTimeout(() => this.kill(live, `It did not finish loading within ${this.limits.loadTimeoutMs} ms`), this.limits.loadTimeoutMs);
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') {
        clearTimeout(loadTimer);
        live.ready = true;
        settle.resolve(message.loaded);
      } else if (message.type === 'load-error') {
        clearTimeout(loadTimer);
        live.failure = message.reason;
        void this.stop(live, message.reason);
      } else this.onMessage(live, message);
    });
    worker.on('error', (error) => (live.failure ??= `${error.name}: ${error.message}`));
    worker.on('exit', (code) => {
      clearTimeout(loadTimer);
      const reason = live.failure ?? `Its worker exited with code ${code}`;
      settle.reject(new ExtensionFailure(reason));
      this.failRuns(live, reason);
      this.detach(live, reason);
    });
    return live;
  }

  private onMessage(live: Live, message: FromWorker): void {
    if (message.type === 'done') {
      const run = live.runs.get(message.id);
      if (!run) return;
      live.runs.delete(message.id);
      clearTimeout(run.timer);
      if (message.ok) run.resolve(message.value);
      else run.reject(fromWire(message.error, this.setup.extension));
    } else if (message.type === 'request') {
      const run = live.runs.get(message.runId);
      const answer = run ? run.serve(message.request) : Promise.reject(new Error('The call this request belongs to is over.'));
      answer.then(
        (value) => live.worker.postMessage({ type: 'answer', id: message.id, ok: true, value } satisfies ToWorker),
        (error) => live.worker.postMessage({ type: 'answer', id: message.id, ok: false, error: toWire(error) } satisfies ToWorker),
      );
    } else if (message.type === 'log') {
      this.logger[message.level]({ extension: this.setup.extension, data: message.data }, message.message);
    }
  }

  /** Ends a thread that hangs or failed to load; the next call starts a fresh one. */
  private kill(live: Live, reason: string): void {
    live.failure ??= reason;
    this.detach(live, reason);
    void this.stop(live, reason);
  }

  /** Stops sending new calls to a dying thread; the next call starts a fresh one. */
  private detach(live: Live, reason: string): void {
    if (this.live !== live) return;
    this.live = undefined;
    if (live.ready && !this.closed) this.noteRestart(reason);
  }

  private async stop(live: Live, reason: string): Promise<void> {
    this.failRuns(live, reason);
    await live.worker.terminate();
  }

  private failRuns(live: Live, reason: string): void {
    for (const run of live.runs.values()) {
      clearTimeout(run.timer);
      run.reject(new ExtensionFailure(`Extension ${this.setup.extension}: ${reason}.`));
    }
    live.runs.clear();
  }

  private noteRestart(reason: string): void {
    this.restarts++;
    this.logger.warn({ extension: this.setup.extension, reason, restarts: this.restarts }, 'extension worker stopped; the next call starts a new one');
  }
}

function describe(task: Task): string {
  if (task.kind === 'call') return `The call ${task.model}/${task.method}`;
  return task.kind === 'hook' ? `The ${task.hook} hook` : `Its ${task.direction} migrations`;
}

function fromWire(error: WireError, extension: string): Error {
  if (error.tally) return new TallyError(error.code as TallyError['code'], error.errors, error.response);
  return new ExtensionFailure(`Extension ${extension}: ${error.message}`);
}

function toWire(error: unknown): WireError {
  if (error instanceof TallyError) return { tally: true, code: error.code, errors: error.errors, response: error.response };
  return { tally: false, message: error instanceof Error ? error.message : String(error) };
}
