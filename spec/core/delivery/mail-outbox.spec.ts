import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { SmtpSink } from '../../support/smtp-sink';
import { MAX_ATTACHMENT_BYTES, queueMessage } from '../../../core/delivery/queue-message';
import { queueTemplateMessage } from '../../../core/delivery/queue-template-message';
import { mailDb } from '../../../core/delivery/mail-tables';
import { TallyError } from '../../../core/kernel/tally-error';

const welcomeTags = { contact: { first_name: 'Ada' }, username: 'ada', login_url: 'https://example.com/login' };

describe('the mail outbox (core, a real SMTP server)', function () {
  let server: TestServer;
  let sink: SmtpSink;

  beforeEach(async () => {
    server = await startTestServer({ mail: { pollMs: 20, retryDelaysMs: [300, 300, 300, 300, 300, 300] } });
    sink = await SmtpSink.start();
    const body = `vars[host]=127.0.0.1&vars[port]=${sink.port}&vars[tls]=none&vars[from_address]=billing@example.com`;
    const answer = await server.request('PUT', '/api/mail_settings/set.json', { body });
    expect(answer.status, answer.text).to.equal(200);
  });

  afterEach(async () => {
    await server.close();
    await sink.close();
  });

  it('sends a template message with its attachments, byte for byte', async () => {
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 256));
    await queueTemplateMessage(server.installation.db, {
      companyId: 1,
      action: 'account_welcome',
      tags: welcomeTags,
      to: ['ada@example.com'],
      attachments: [{ filename: 'terms.bin', contentType: 'application/octet-stream', content: bytes }],
    });
    const got = await sink.until(() => sink.received[0]);
    expect(got.mail.subject).to.match(/^Welcome to /);
    expect(got.mail.attachments).to.have.length(1);
    expect(got.mail.attachments[0]).to.deep.include({ filename: 'terms.bin', contentType: 'application/octet-stream' });
    expect(Buffer.compare(got.mail.attachments[0].content, bytes)).to.equal(0);
  });

  it('refuses an attachment over the cap, a filename with a line break and a bad content type, writing nothing', async () => {
    const attempt = (attachment: { filename: string; contentType: string; content: Buffer }) =>
      queueMessage(server.installation.db, { companyId: 1, action: 'test', to: ['ada@example.com'], subject: 'x', html: '', text: 'x', attachments: [attachment] }).then(
        () => expect.fail('queued'),
        (error) => {
          expect(error).to.be.instanceOf(TallyError);
          expect((error as TallyError).status).to.equal(400);
          return Object.keys((error as TallyError).errors!.attachments)[0];
        },
      );
    expect(await attempt({ filename: 'big.pdf', contentType: 'application/pdf', content: Buffer.alloc(MAX_ATTACHMENT_BYTES + 1) })).to.equal('size');
    expect(await attempt({ filename: 'a.pdf\r\nBcc: eve@example.org', contentType: 'application/pdf', content: Buffer.from('x') })).to.equal('filename');
    expect(await attempt({ filename: 'a.pdf', contentType: 'application/pdf\r\nX: y', content: Buffer.from('x') })).to.equal('content_type');
    const count = await mailDb(server.installation.db)
      .selectFrom('mail_messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).to.equal(0);
  });

  it('fails the messages of a company whose stored password no longer decrypts, with the reason, and keeps the worker going', async () => {
    await server.installation.settings.set(1, 'smtp_password', 'not a ciphertext of this system key');
    const id = await queueTemplateMessage(server.installation.db, { companyId: 1, action: 'account_welcome', tags: welcomeTags, to: ['ada@example.com'] });
    server.mail!.wake();
    const db = mailDb(server.installation.db);
    const row = await waitFor(async () => {
      const found = await db.selectFrom('mail_messages').select(['status', 'attempts', 'response']).where('id', '=', id).executeTakeFirstOrThrow();
      return Number(found.attempts) >= 1 && found;
    });
    expect(row.response).to.include('cannot be decrypted');
    expect(sink.received).to.have.length(0);
    await server.installation.settings.unset(1, 'smtp_password');
    const got = await sink.until(() => sink.received[0]);
    expect(got.mail.subject).to.match(/^Welcome to /);
  });

  it('sends a message whose lease a dead process held, once the lease runs out, with the Message-ID it was written with', async () => {
    const db = mailDb(server.installation.db);
    const id = await queueTemplateMessage(server.installation.db, { companyId: 1, action: 'account_welcome', tags: welcomeTags, to: ['ada@example.com'] });
    // As if another process had claimed it, sent it and died before recording: its lease still runs for 400 ms.
    await db
      .updateTable('mail_messages')
      .set({ lease_owner: 'dead-process', lease_until: Date.now() + 400 })
      .where('id', '=', id)
      .execute();
    server.mail!.wake();
    const written = await db.selectFrom('mail_messages').select('message_id').where('id', '=', id).executeTakeFirstOrThrow();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(sink.received, 'sent while the lease held').to.have.length(0);
    const got = await sink.until(() => sink.received[0]);
    expect(got.mail.messageId).to.equal(written.message_id);
    const row = await waitFor(async () => {
      const found = await db.selectFrom('mail_messages').select(['status', 'attempts', 'lease_owner', 'date_sent']).where('id', '=', id).executeTakeFirstOrThrow();
      return found.status === 'sent' && found;
    });
    expect(row).to.deep.include({ lease_owner: null });
    expect(Number(row.attempts)).to.equal(1);
    expect(sink.received).to.have.length(1);
  });
});

async function waitFor<T>(check: () => Promise<T | false | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
