import { expect } from 'chai';
import { Credential, startTestServer, TestServer } from '../../support/test-server';
import { SmtpSink } from '../../support/smtp-sink';
import { MailWorker } from '../../../core/delivery/mail-worker';
import { mailDb } from '../../../core/delivery/mail-tables';
import { CANCELLED_ANSWER, VOIDED_ANSWER } from '../../../core/delivery/cancel-invoice-email';

const form = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

async function call(server: TestServer, verb: string, path: string, body: Record<string, string | number>, auth?: Credential) {
  const query = verb === 'GET' || verb === 'DELETE';
  return server.request(verb, `/api/${path}.json${query ? `?${form(body)}` : ''}`, { body: query ? undefined : form(body), auth });
}

async function ok(server: TestServer, verb: string, path: string, body: Record<string, string | number>, auth?: Credential) {
  const answer = await call(server, verb, path, body, auth);
  expect(answer.status, `${path}: ${answer.text}`).to.equal(200);
  return answer.json.response;
}

/**
 * invoices/deleteDelivery and invoices/edit's vars[delivery] cancel the invoice's delivery message
 * still waiting in the mail outbox. No mail worker runs until a spec starts one, so what waits
 * stays waiting until the spec says, and a message cancelled is shown never to go out by a worker
 * that sends everything else.
 */
describe('cancelling an invoice email still in the mail outbox (HTTP, a real SMTP server)', function () {
  let server: TestServer;
  let sink: SmtpSink;
  let worker: MailWorker | undefined;
  let clientId: number;

  beforeEach(async () => {
    server = await startTestServer();
    sink = await SmtpSink.start();
    const settings = { 'vars[host]': '127.0.0.1', 'vars[port]': sink.port, 'vars[tls]': 'none', 'vars[from_address]': 'billing@example.com' };
    await ok(server, 'PUT', 'mail_settings/set', settings);
    clientId = await ok(server, 'POST', 'clients/add', { 'vars[first_name]': 'Ada', 'vars[last_name]': 'Lovelace', 'vars[email]': 'ada@example.com' });
  });

  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await server.close();
    await sink.close();
  });

  const addInvoice = (description: string, methods: string[] = ['email']) =>
    ok(server, 'POST', 'invoices/add', {
      'vars[client_id]': clientId,
      'vars[date_billed]': '2026-11-01 00:00:00',
      'vars[date_due]': '2026-11-15 00:00:00',
      'vars[currency]': 'USD',
      'vars[lines][0][description]': description,
      'vars[lines][0][amount]': '10.00',
      ...Object.fromEntries(methods.map((method, i) => [`vars[delivery][${i}]`, method])),
    }) as Promise<number>;

  const deliveries = async (invoiceId: number) => (await ok(server, 'GET', 'invoices/getDelivery', { invoice_id: invoiceId })) as Array<{ id: number; method: string }>;
  const emailDelivery = async (invoiceId: number) => (await deliveries(invoiceId)).find((d) => d.method === 'email')!.id;

  const messagesOf = (invoiceId: number) =>
    mailDb(server.installation.db).selectFrom('mail_messages').select(['id', 'status', 'response', 'lease_owner']).where('invoice_id', '=', invoiceId).orderBy('id').execute();

  /** Starts a worker, waits until it has sent the message of `invoiceId` (written after the others, so claimed with or after them), and stops it: every message it claimed is done. */
  async function sendAllUpTo(invoiceId: number) {
    worker = new MailWorker(server.installation, { pollMs: 20 });
    worker.start();
    for (let tries = 0; (await messagesOf(invoiceId))[0].status !== 'sent'; tries++) {
      if (tries > 300) throw new Error(`the message of invoice ${invoiceId} was never sent`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await worker.stop();
    worker = undefined;
  }

  /** The subjects that arrived; the default subject names the invoice by its number. */
  const subjects = () => sink.received.map((r) => r.mail.subject ?? '');
  const numberOf = async (invoiceId: number) => (await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).id_code as string;

  it('deleteDelivery of the email delivery cancels its waiting message, which stays in the mail log as cancelled and never goes out', async () => {
    const cancelled = await addInvoice('Cancelled hosting');
    const [message] = await messagesOf(cancelled);
    expect(message.status).to.equal('pending');
    await ok(server, 'DELETE', 'invoices/deleteDelivery', { invoice_delivery_id: await emailDelivery(cancelled) });
    const entry = await ok(server, 'GET', 'clients/getMailLogEntry', { log_id: message.id });
    expect(entry.entry).to.deep.include({ status: 'cancelled', response: CANCELLED_ANSWER });

    const control = await addInvoice('Kept hosting');
    await sendAllUpTo(control);
    expect(sink.received).to.have.length(1);
    expect(subjects()[0]).to.include(`Invoice ${await numberOf(control)} from`);
    expect((await messagesOf(cancelled))[0].status).to.equal('cancelled');
  });

  it('invoices/edit with vars[delivery] without email cancels the waiting message; keeping email keeps it', async () => {
    const dropped = await addInvoice('Dropped hosting', ['email', 'paper']);
    const kept = await addInvoice('Kept hosting', ['email']);
    await ok(server, 'PUT', 'invoices/edit', { invoice_id: kept, 'vars[delivery][0]': 'email', 'vars[delivery][1]': 'paper' });
    await ok(server, 'PUT', 'invoices/edit', { invoice_id: dropped, 'vars[delivery][0]': 'paper' });
    expect((await messagesOf(dropped)).map((m) => m.status)).to.deep.equal(['cancelled']);
    expect((await messagesOf(kept)).map((m) => m.status)).to.deep.equal(['pending']);
    expect((await deliveries(dropped)).map((d) => d.method)).to.deep.equal(['paper']);

    await sendAllUpTo(kept);
    expect(sink.received).to.have.length(1);
    expect(subjects()[0]).to.include(`Invoice ${await numberOf(kept)} from`);
  });

  it('voiding an invoice (invoices/void or edit with vars[status]=void) cancels its waiting message, its email delivery kept', async () => {
    const voided = await addInvoice('Voided hosting');
    const editedVoid = await addInvoice('Edited void hosting');
    const kept = await addInvoice('Kept hosting');
    await ok(server, 'POST', 'invoices/void', { invoice_id: voided });
    await ok(server, 'PUT', 'invoices/edit', { invoice_id: editedVoid, 'vars[status]': 'void' });
    for (const invoiceId of [voided, editedVoid]) {
      expect((await messagesOf(invoiceId)).map((m) => [m.status, m.response])).to.deep.equal([['cancelled', VOIDED_ANSWER]]);
      expect((await deliveries(invoiceId)).map((d) => d.method)).to.deep.equal(['email']);
    }
    await sendAllUpTo(kept);
    expect(sink.received).to.have.length(1);
    expect(subjects()[0]).to.include(`Invoice ${await numberOf(kept)} from`);
  });

  it('keeps the message while another email delivery of the invoice still waits for it, and cancels it with the last', async () => {
    const invoiceId = await addInvoice('Twice hosting');
    const again = await ok(server, 'POST', 'invoices/addDelivery', { invoice_id: invoiceId, client_id: clientId, 'vars[method]': 'email' });
    expect(await messagesOf(invoiceId)).to.have.length(1);
    await ok(server, 'DELETE', 'invoices/deleteDelivery', { invoice_delivery_id: again });
    expect((await messagesOf(invoiceId)).map((m) => m.status)).to.deep.equal(['pending']);
    await ok(server, 'DELETE', 'invoices/deleteDelivery', { invoice_delivery_id: await emailDelivery(invoiceId) });
    expect((await messagesOf(invoiceId)).map((m) => m.status)).to.deep.equal(['cancelled']);
  });

  it('leaves a message a worker holds (being sent) and one already sent as they are', async () => {
    const db = mailDb(server.installation.db);
    const held = await addInvoice('Held hosting');
    const [message] = await messagesOf(held);
    // As if a worker of another process had claimed it and were talking to the server now.
    await db
      .updateTable('mail_messages')
      .set({ lease_owner: 'another-process', lease_until: Date.now() + 60_000 })
      .where('id', '=', message.id)
      .execute();
    await ok(server, 'DELETE', 'invoices/deleteDelivery', { invoice_delivery_id: await emailDelivery(held) });
    expect((await messagesOf(held))[0]).to.deep.include({ status: 'pending', lease_owner: 'another-process' });

    const sent = await addInvoice('Sent hosting');
    const deliveryId = await emailDelivery(sent);
    await sendAllUpTo(sent);
    await ok(server, 'DELETE', 'invoices/deleteDelivery', { invoice_delivery_id: deliveryId });
    expect((await messagesOf(sent))[0].status).to.equal('sent');
  });

  it("cancels nothing for another company's key or a client the invoice is not of, and changes nothing", async () => {
    const invoiceId = await addInvoice('Guarded hosting');
    const deliveryId = await emailDelivery(invoiceId);
    const other = await ok(server, 'POST', 'companies/add', { 'vars[name]': 'Other' }, server.installationCredential);
    const key = await server.credentialFor(other);
    const foreign = await call(server, 'DELETE', 'invoices/deleteDelivery', { invoice_delivery_id: deliveryId }, key);
    expect(foreign.status, foreign.text).to.equal(400);
    expect(foreign.json.errors).to.have.property('invoice_delivery_id');
    const foreignEdit = await call(server, 'PUT', 'invoices/edit', { invoice_id: invoiceId, 'vars[delivery][0]': 'paper' }, key);
    expect(foreignEdit.status, foreignEdit.text).to.be.oneOf([400, 404]);
    const otherClient = await ok(server, 'POST', 'clients/add', { 'vars[first_name]': 'Eve', 'vars[last_name]': 'Mallory', 'vars[email]': 'eve@example.com' });
    const wrongClient = await call(server, 'DELETE', 'invoices/deleteDelivery', { invoice_delivery_id: deliveryId, client_id: otherClient });
    expect(wrongClient.status, wrongClient.text).to.equal(400);
    expect((await messagesOf(invoiceId)).map((m) => m.status)).to.deep.equal(['pending']);
    expect(await deliveries(invoiceId)).to.have.length(1);
  });
});
