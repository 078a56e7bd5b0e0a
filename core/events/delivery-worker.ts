import { Db } from '../db/schema';
import { SettingsStore } from '../settings-store';
import { formatUtc } from '../kernel/timestamps';
import { claimDeliveries, ClaimedDelivery, releaseDeliveries } from './delivery-claims';
import { Outcome, recordOutcomes } from './delivery-outcomes';
import { EventConsumer, OutboxEvent } from './event-consumers';
import { OutboxBell } from './outbox-bell';
import { EventsDb, eventsDb } from './event-tables';
import { fanOut, outboxEvent } from './fan-out';
import { pruneOutbox } from './prune';
import { RETRY_DELAYS_MS, retryDelay } from './retry-schedule';
import { AttemptPolicy, attemptWebhook, EndpointRow } from './webhook-attempts';
import { WebhookSender } from './webhook-sender';
import { leaseOwner, WorkerLoop } from './worker-loop';
import { endpointChanges } from './endpoint-changes';

/** How long what a round read for starting deliveries (endpoints, policy) is used by deliveries started between rounds (ms). */
const READY_FRESH_MS = 1000;

/** How long finished deliveries are gathered before a round records them, while others wait to be sent (ms). */
const ROUND_GATHER_MS = 20;

export interface DeliveryWorkerOptions {
  /** How often the outbox is looked at when nothing woke the worker (ms). */
  pollMs?: number;
  /** Deliveries in flight at once in this process. */
  maxInFlight?: number;
  /** ... of which at most this many to one endpoint or subscriber: a receiver that hangs holds only these. */
  perTargetInFlight?: number;
  /** A webhook request's whole time (ms). */
  timeoutMs?: number;
  /** How much of a receiver's answer is read at most (bytes). */
  maxResponseBytes?: number;
  /** The waits between attempts (ms); the default spreads ten attempts over about three days. */
  retryDelaysMs?: readonly number[];
  /** How often delivered rows past the retention setting are deleted (ms). */
  pruneEveryMs?: number;
  onError?(error: unknown): void;
  /** Rung after each committed write: the worker then looks at once instead of at its next poll. */
  bell?: OutboxBell;
}

interface Installation {
  readonly db: Db;
  readonly settings: SettingsStore;
}

/**
 * Delivers the outbox after commit: fans committed events out into deliveries, claims due ones
 * under a lease, sends them (webhooks, signed; consumers such as plugin handlers through their
 * interface) and records every attempt. Nothing is held only in memory: a process killed at any
 * point leaves leases that run out and deliveries that another round (here or in another process)
 * takes again, with the same event id. Calls `wake()` after a commit to skip the poll's wait.
 */
export class DeliveryWorker {
  private readonly db: EventsDb;
  private readonly owner = leaseOwner();
  private readonly sender = new WebhookSender();
  private readonly inFlight = new Map<number, Promise<void>>();
  /**
   * Claimed deliveries whose endpoint or subscriber has no room yet (perTargetInFlight): kept,
   * under this process's lease, until a slot frees, instead of being let go and claimed again each
   * round (one busy endpoint made every round claim 500 rows, start 16 and release the rest).
   */
  private readonly waiting: Array<{ delivery: ClaimedDelivery; event: OutboxEvent; since: number }> = [];
  private readonly perTarget = new Map<string, number>();
  private readonly outcomes: Outcome[] = [];
  private readonly options: Required<Omit<DeliveryWorkerOptions, 'onError' | 'bell'>> & Pick<DeliveryWorkerOptions, 'onError' | 'bell'>;
  private readonly loop: WorkerLoop;
  private lastPrune = 0;
  private soon: NodeJS.Timeout | null = null;
  /** What the last round read for starting deliveries (see startReady). */
  private ready: { endpoints: Map<number, EndpointRow | null>; policy: AttemptPolicy; readAt: number; endpointChanges: number } | null = null;

  constructor(
    private readonly installation: Installation,
    private readonly consumers: readonly EventConsumer[] = [],
    options: DeliveryWorkerOptions = {},
  ) {
    this.db = eventsDb(installation.db) as EventsDb;
    this.options = {
      pollMs: 250,
      maxInFlight: 256,
      perTargetInFlight: 16,
      timeoutMs: 10_000,
      maxResponseBytes: 64 * 1024,
      retryDelaysMs: RETRY_DELAYS_MS,
      pruneEveryMs: 3_600_000,
      ...options,
    };
    this.loop = new WorkerLoop(() => this.round(), this.options);
  }

  start(): void {
    this.loop.start(() => this.drain());
  }

  /**
   * Looks at the outbox now (the installation's OutboxBell calls it after each committed write). A
   * wake during a round is kept, so an event committed while the worker looked is not left to wait
   * for the next poll.
   */
  wake(): void {
    this.loop.wake();
  }

  /** Wakes the worker in ROUND_GATHER_MS, once however many ask meanwhile. */
  private wakeSoon(): void {
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      this.wake();
    }, ROUND_GATHER_MS);
  }

  /** Stops claiming, lets deliveries in flight finish and records them. */
  async stop(): Promise<void> {
    await this.loop.stop();
    if (this.soon) clearTimeout(this.soon);
    this.soon = null;
    this.sender.close();
  }

  /** One pass: record finished attempts, fan out, claim and start deliveries. True when it found work. */
  async round(): Promise<boolean> {
    let busy = await this.flush();
    busy = (await fanOut(this.db, this.consumers, 500)) > 0 || busy;
    const room = this.options.maxInFlight - this.inFlight.size - this.waiting.length;
    if (room > 0) {
      const claimed = await claimDeliveries(this.db, this.owner, Math.min(room, 500), this.leaseMs(), [...this.inFlight.keys(), ...this.waiting.map((w) => w.delivery.id)]);
      if (claimed.length) {
        const events = await this.events(claimed);
        const now = Date.now();
        for (const delivery of claimed) this.waiting.push({ delivery, event: events.get(delivery.eventId)!, since: now });
      }
      busy = claimed.length > 0 || busy;
    }
    await this.begin();
    if (Date.now() - this.lastPrune >= this.options.pruneEveryMs) {
      this.lastPrune = Date.now();
      await pruneOutbox(this.db, Number(await this.installation.settings.system('events_retention_days')));
    }
    return busy;
  }

  /** Once the loop stopped: lets go of deliveries not started, waits for those in flight and records them. */
  private async drain(): Promise<void> {
    await releaseDeliveries(
      this.db,
      this.owner,
      this.waiting.splice(0).map((w) => w.delivery.id),
    ).catch((error) => this.options.onError?.(error));
    await Promise.all(this.inFlight.values());
    for (let tries = 0; this.outcomes.length && tries < 3; tries++) await this.flush().catch((error) => this.options.onError?.(error));
  }

  /** Long enough for a request to time out and its outcome to be written, with room to spare. */
  private leaseMs(): number {
    return this.options.timeoutMs * 2 + 30_000;
  }

  private async flush(): Promise<boolean> {
    if (!this.outcomes.length) return false;
    const batch = this.outcomes.splice(0, this.outcomes.length);
    try {
      await recordOutcomes(this.db, batch);
    } catch (error) {
      // Kept for the next round; if it never comes, the lease runs out and the delivery is sent again.
      this.outcomes.unshift(...batch);
      throw error;
    }
    return true;
  }

  /**
   * Reads what the waiting deliveries need to start (their endpoints, the installation's policy),
   * lets go those kept for half their lease, and starts those whose endpoint or subscriber has room.
   */
  private async begin(): Promise<void> {
    const now = Date.now();
    const stale: number[] = [];
    const kept = this.waiting.splice(0).filter((entry) => {
      if (now - entry.since <= this.leaseMs() / 2) return true;
      stale.push(entry.delivery.id);
      return false;
    });
    this.waiting.push(...kept);
    await releaseDeliveries(this.db, this.owner, stale);
    if (!this.waiting.length) return;
    const [endpoints, policy] = await Promise.all([this.endpoints(this.waiting.map((w) => w.delivery)), this.policy()]);
    this.ready = { endpoints, policy, readAt: Date.now(), endpointChanges: endpointChanges.count };
    this.startReady();
  }

  /**
   * Starts the waiting deliveries whose endpoint or subscriber has room, with what the last round
   * read. Synchronous, and called again as each delivery finishes: a freed slot is taken at once
   * rather than at the next round, whose writes (outcomes, claims) take longer than a local
   * receiver's answer, so sending waited on them (about 450 deliveries/s where HTTP alone did 2,000).
   * What was read is used for READY_FRESH_MS only, and not at all once an endpoint was changed in
   * this process (endpoint-changes.ts); an endpoint that answered 410 is read again (it is disabled
   * by then) before anything more is sent to it.
   */
  private startReady(): void {
    const ready = this.ready;
    if (!ready || Date.now() - ready.readAt > READY_FRESH_MS || ready.endpointChanges !== endpointChanges.count || !this.waiting.length) return;
    const taken: typeof this.waiting = [];
    const kept = this.waiting.splice(0).filter((entry) => {
      const { delivery } = entry;
      if (delivery.kind === 'webhook' && !ready.endpoints.has(Number(delivery.target))) return true;
      const key = `${delivery.kind}:${delivery.target}`;
      const busy = this.perTarget.get(key) ?? 0;
      if (busy >= this.options.perTargetInFlight) return true;
      this.perTarget.set(key, busy + 1);
      taken.push(entry);
      return false;
    });
    this.waiting.push(...kept);
    for (const { delivery, event } of taken) {
      const attempt =
        delivery.kind === 'webhook' ? attemptWebhook(this.sender, delivery, event, ready.endpoints.get(Number(delivery.target)) ?? undefined, ready.policy) : this.attemptConsumer(delivery, event);
      const running = attempt
        .then(
          (outcome) => {
            this.outcomes.push(outcome);
            if (outcome.disableEndpoint !== undefined) this.ready?.endpoints.delete(outcome.disableEndpoint);
          },
          (error) => this.options.onError?.(error),
        )
        .finally(() => {
          this.inFlight.delete(delivery.id);
          const key = `${delivery.kind}:${delivery.target}`;
          this.perTarget.set(key, (this.perTarget.get(key) ?? 1) - 1);
          this.startReady();
          // A round's writes block the event loop on SQLite: one round per finished delivery took
          // more time than sending. Outcomes are gathered for a moment into one round, unless
          // nothing is left to send and the round must claim more.
          if (this.waiting.length) this.wakeSoon();
          else this.wake();
        });
      this.inFlight.set(delivery.id, running);
    }
  }

  private async attemptConsumer(delivery: ClaimedDelivery, event: OutboxEvent): Promise<Outcome> {
    const started = performance.now();
    const attemptedAt = formatUtc(new Date());
    const attempts = delivery.attempts + 1;
    const base = { deliveryId: delivery.id, companyId: delivery.companyId, attemptedAt, attempts, status: null, response: null };
    const consumer = this.consumers.find((c) => c.kind === delivery.kind);
    if (!consumer) return { ...base, durationMs: 0, error: `no consumer of kind ${delivery.kind}`, result: 'dead' };
    try {
      await consumer.deliver(delivery.target, event);
      return { ...base, durationMs: Math.round(performance.now() - started), error: null, result: 'delivered' };
    } catch (error) {
      const wait = retryDelay(attempts, this.options.retryDelaysMs);
      const reason = error instanceof Error ? error.message : String(error);
      const outcome = { ...base, durationMs: Math.round(performance.now() - started), error: reason };
      return wait === null ? { ...outcome, result: 'dead' } : { ...outcome, result: 'retry', nextAttemptAt: Date.now() + wait };
    }
  }

  private async events(deliveries: ClaimedDelivery[]): Promise<Map<string, OutboxEvent>> {
    const ids = [...new Set(deliveries.map((d) => d.eventId))];
    const rows = await this.db.selectFrom('events').selectAll().where('id', 'in', ids).execute();
    return new Map(rows.map((row) => [row.id, outboxEvent(row)]));
  }

  /** The webhook endpoints of these deliveries, by id; null for one deleted since (its deliveries die). */
  private async endpoints(deliveries: ClaimedDelivery[]): Promise<Map<number, EndpointRow | null>> {
    const ids = [...new Set(deliveries.filter((d) => d.kind === 'webhook').map((d) => Number(d.target)))];
    const found = new Map<number, EndpointRow | null>(ids.map((id) => [id, null]));
    if (!ids.length) return found;
    const rows = await this.db.selectFrom('webhook_endpoints').select(['id', 'url', 'status', 'secret', 'previous_secret', 'previous_until']).where('id', 'in', ids).execute();
    for (const row of rows) found.set(Number(row.id), { ...row, id: Number(row.id) });
    return found;
  }

  private async policy(): Promise<AttemptPolicy> {
    const settings = this.installation.settings;
    const [allowHttp, allowPrivate, systemKey] = await Promise.all([settings.system('webhooks_allow_http'), settings.system('webhooks_allow_private_addresses'), settings.system('system_key')]);
    return {
      allowHttp: allowHttp === 'true',
      allowPrivate: allowPrivate === 'true',
      systemKey,
      timeoutMs: this.options.timeoutMs,
      maxResponseBytes: this.options.maxResponseBytes,
      retryDelaysMs: this.options.retryDelaysMs,
    };
  }
}
