import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { SmtpSink } from '../../support/smtp-sink';
import { WebhookReceiver } from '../../support/webhook-receiver';

/** An hour and a bit: no poll of these specs ends unless the spec ends it, so a message sent came from a wake. */
const POLL_MS = 3_600_007;

/**
 * Lets a spec end a worker's poll wait as its timer would, without waiting for it: every timer of
 * POLL_MS is recorded (and still set for real, so clearing it works as ever).
 */
class PollTimers {
  private readonly real = global.setTimeout;
  private readonly waits: Array<{ fire: () => void; afterRound: number }> = [];
  /** Rounds finished so far, told by the worker's round (see watchRounds). */
  roundsDone = 0;
  inRound = false;

  install(): void {
    const real = this.real;
    const waits = this.waits;
    const self = this;
    global.setTimeout = function (handler: (...args: any[]) => void, ms?: number, ...args: any[]) {
      const timer = real(handler, ms, ...args);
      if (ms === POLL_MS) waits.push({ fire: () => handler(...args), afterRound: self.roundsDone });
      return timer;
    } as typeof setTimeout;
  }

  restore(): void {
    global.setTimeout = this.real;
  }

  /** True while the worker waits out a poll begun after its last round. */
  idle(): boolean {
    const newest = this.waits.at(-1);
    return !this.inRound && this.roundsDone > 0 && newest?.afterRound === this.roundsDone;
  }

  /** Ends the worker's current poll wait as its timer would. */
  endWait(): void {
    this.waits.at(-1)!.fire();
  }
}

/** Counts a worker's rounds, and runs `afterNext` (once) when the next round has looked and found nothing. */
function watchRounds(worker: { round(): Promise<boolean> }, timers: PollTimers) {
  const original = worker.round.bind(worker);
  const watch = { afterNext: null as null | (() => Promise<void>) };
  worker.round = async () => {
    timers.inRound = true;
    try {
      const found = await original();
      const then = watch.afterNext;
      watch.afterNext = null;
      if (then) await then();
      return found;
    } finally {
      timers.inRound = false;
      timers.roundsDone++;
    }
  };
  return watch;
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('the worker never went idle');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Lets the worker go idle on a poll wait, then ends that wait as its timer would and runs `commit`
 * (a write whose commit rings the outbox bell) in the round that follows, after the round looked.
 */
async function commitRightAfterTimeout(worker: { round(): Promise<boolean>; wake(): void }, timers: PollTimers, commit: () => Promise<void>): Promise<void> {
  const watch = watchRounds(worker, timers);
  worker.wake();
  await until(() => timers.idle());
  watch.afterNext = commit;
  timers.endWait();
}

/**
 * The bug both workers once had: a poll wait that its timer ended left its "nudge" behind; the next
 * wake, arriving while a round looked, called that stale nudge, which swallowed the wake and ended
 * nothing, so the worker slept a whole poll with work due. Here the poll is an hour: the work
 * committed during the round right after a timed-out wait must be done at its bell, or never.
 */
describe('the outbox workers: a wake right after an idle poll ended is never lost', function () {
  let timers: PollTimers;
  let server: TestServer | undefined;
  /** Closed after the server, whose workers hold connections to them. */
  let peers: Array<{ close(): Promise<void> }> = [];

  beforeEach(() => {
    timers = new PollTimers();
    timers.install();
  });

  afterEach(async () => {
    timers.restore();
    await server?.close();
    server = undefined;
    for (const peer of peers.splice(0)) await peer.close();
  });

  it('the mail worker sends a message queued during the round after a timed-out wait, at its bell', async () => {
    const sink = await SmtpSink.start();
    peers.push(sink);
    server = await startTestServer({ mail: { pollMs: POLL_MS } });
    const body = `vars[host]=127.0.0.1&vars[port]=${sink.port}&vars[tls]=none&vars[from_address]=billing@example.com`;
    expect((await server.request('PUT', '/api/mail_settings/set.json', { body })).status).to.equal(200);
    const running = server;
    await commitRightAfterTimeout(server.mail!, timers, async () => {
      const queued = await running.request('POST', '/api/mail_settings/sendTest.json', { body: 'to=ada@example.com' });
      expect(queued.status, queued.text).to.equal(200);
    });
    const got = await sink.until(() => sink.received[0], 10_000);
    expect(got.envelopeTo).to.deep.equal(['ada@example.com']);
  });

  it('the event worker delivers an event committed during the round after a timed-out wait, at its bell', async () => {
    const receiver = await WebhookReceiver.start();
    peers.push(receiver);
    server = await startTestServer({ events: { pollMs: POLL_MS } });
    const allow = 'settings[webhooks_allow_http]=true&settings[webhooks_allow_private_addresses]=true';
    expect((await server.request('POST', '/api/settings/setSettings.json', { body: allow, auth: server.installationCredential })).status).to.equal(200);
    const endpoint = await server.request('POST', '/api/webhooks/add.json', { body: `vars[url]=${encodeURIComponent(receiver.url)}&vars[event_types][]=Clients.add` });
    expect(endpoint.status, endpoint.text).to.equal(200);
    receiver.secrets = [endpoint.json.response.secret];
    const running = server;
    await commitRightAfterTimeout(server.deliveries!, timers, async () => {
      const added = await running.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Ada&vars[last_name]=Lovelace&vars[email]=ada@example.com' });
      expect(added.status, added.text).to.equal(200);
    });
    const got = await receiver.until(() => receiver.received.find((r) => r.event?.type === 'Clients.add'));
    expect(got.event.data.first_name).to.equal('Ada');
  });
});
