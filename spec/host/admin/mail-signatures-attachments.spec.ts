import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { newCompany, ok } from '../api/billing/fixtures';
import { addStaff, AdminClient } from './support/admin-client';
import { MAX_ATTACHMENT_BYTES } from '../../../core/delivery/queue-message';

/** Mail → Email groups, Signatures and a template's attachments, over HTTP as a staff member. */
describe('admin area: email groups, signatures and template attachments', () => {
  let server: TestServer;
  let staff: AdminClient;
  before(async () => {
    server = await startTestServer();
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(async () => {
    await server.close();
  });

  const signatures = () => ok(server, 'GET', 'emails/getAllSignatures', { company_id: 1 }) as Promise<Array<{ id: number; name: string; text: string; html: string }>>;
  const welcome = () => ok(server, 'GET', 'emails/getByType', { action: 'account_welcome' });

  /** Posts the upload form as a browser does (multipart), with the session's cookie and token; `more` adds further files. */
  async function upload(client: AdminClient, fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }, more: Array<{ name: string; bytes: Buffer }> = []) {
    const body = new FormData();
    body.append('_csrf', client.token);
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    const files = [...(file ? [file] : []), ...more.map((m) => ({ ...m, type: 'text/plain' }))];
    for (const f of files) body.append('file', new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(`${server.url}/admin/mail/templates/attachments/add`, { method: 'POST', body, redirect: 'manual', headers: { cookie, origin: server.url } });
    return { status: response.status, location: response.headers.get('location'), text: await response.text() };
  }

  it('lists the email groups, core and the company’s own, and shows a group with its template', async () => {
    const own = await ok(server, 'POST', 'email_groups/add', { vars: { action: 'order_shipped', type: 'client', tags: '{order.number}' } });
    const list = await staff.get('/admin/mail/groups?company=1');
    expect(list.status).to.equal(200);
    expect(list.text).to.contain('invoice_delivery_unpaid').and.to.contain('order_shipped').and.to.contain('The company’s own');
    const core = (await ok(server, 'GET', 'email_groups/getByAction', { action: 'invoice_delivery_unpaid' })).id;
    const page = await staff.get(`/admin/mail/groups/view?company=1&email_group_id=${core}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('Invoice {invoice.id_code} from {company.name}').and.to.contain('/admin/mail/templates/edit?company=1&amp;action=invoice_delivery_unpaid');
    const bare = await staff.get(`/admin/mail/groups/view?company=1&email_group_id=${own}`);
    expect(bare.text).to.contain('This group has no template yet');
    expect((await staff.get('/admin/mail/groups/view?company=1&email_group_id=999999')).status).to.equal(404);
  });

  it('adds, edits and deletes a signature, prints typed markup as text, and keeps what was typed when refused', async () => {
    await staff.get('/admin/mail/signatures?company=1');
    const added = await staff.post('/admin/mail/signatures/add', { company_id: '1', name: '<script>alert(1)</script>', text: '-- \nThe desk', html: '<p>The desk</p>' });
    expect(added.status, added.text).to.equal(303);
    const [signature] = await signatures();
    expect(signature).to.include({ name: '<script>alert(1)</script>', text: '-- \nThe desk', html: '<p>The desk</p>' });
    const list = await staff.get(added.location!);
    expect(list.text).to.contain('The signature has been added.').and.to.contain('&lt;script&gt;alert(1)&lt;/script&gt;').and.not.to.contain('<script>alert(1)');

    const refused = await staff.post('/admin/mail/signatures/add', { company_id: '1', name: 'Blank', text: '   ', html: '' });
    expect(refused.status).to.equal(400);
    expect(refused.text).to.contain('That could not be saved').and.to.contain('value="Blank"');
    expect(await signatures()).to.have.length(1);

    const edit = await staff.get(`/admin/mail/signatures/edit?company=1&email_signature_id=${signature.id}`);
    expect(edit.status).to.equal(200);
    const saved = await staff.post('/admin/mail/signatures/edit', { company_id: '1', email_signature_id: String(signature.id), name: 'Desk', text: '-- \nThe help desk', html: '' });
    expect(saved.status, saved.text).to.equal(303);
    expect((await signatures())[0]).to.include({ name: 'Desk', text: '-- \nThe help desk', html: '' });

    // One an email still uses is refused with the model's reason, and kept.
    await ok(server, 'PUT', 'emails/edit', { action: 'account_welcome', vars: { email_signature_id: signature.id } });
    const inUse = await staff.post('/admin/mail/signatures/delete', { company_id: '1', email_signature_id: String(signature.id) });
    expect(inUse.status).to.equal(400);
    expect(await signatures()).to.have.length(1);
    await ok(server, 'PUT', 'emails/edit', { action: 'account_welcome', vars: { email_signature_id: '' } });
    const deleted = await staff.post('/admin/mail/signatures/delete', { company_id: '1', email_signature_id: String(signature.id) });
    expect(deleted.status, deleted.text).to.equal(303);
    expect(await signatures()).to.deep.equal([]);
  });

  it('uploads a file to a template, refuses one over the cap with nothing attached, and deletes one', async () => {
    const before = await staff.get('/admin/mail/templates/edit?company=1&action=payment_declined');
    expect(before.text).to.contain('save the template once, then attach files here');
    await ok(server, 'PUT', 'emails/edit', { action: 'payment_declined', vars: { subject: 'Welcome, {contact.first_name}' } });
    await staff.get('/admin/mail/templates/edit?company=1&action=payment_declined');
    const emailId = (await ok(server, 'GET', 'emails/getByType', { action: 'payment_declined' })).id as number;

    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 256));
    const sent = await upload(staff, { company_id: '1', action: 'payment_declined' }, { name: 'terms.bin', type: 'application/octet-stream', bytes });
    expect(sent.status, sent.text).to.equal(303);
    const [attachment] = await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId });
    expect(attachment).to.include({ name: 'terms.bin', type: 'application/octet-stream', size: 5000 });
    const stored = await ok(server, 'GET', 'emails/getAttachment', { email_attachment_id: attachment.id });
    expect(Buffer.compare(Buffer.from(stored.content, 'base64'), bytes)).to.equal(0);
    expect((await staff.get(sent.location!)).text)
      .to.contain('The file has been attached.')
      .and.to.contain('terms.bin');

    const big = await upload(staff, { company_id: '1', action: 'payment_declined' }, { name: 'big.bin', type: 'application/octet-stream', bytes: Buffer.alloc(MAX_ATTACHMENT_BYTES + 1) });
    expect(big.status).to.equal(400);
    expect(big.text).to.contain('larger than 10 MiB');
    const none = await upload(staff, { company_id: '1', action: 'payment_declined' });
    expect(none.status).to.equal(400);
    expect(none.text).to.contain('Please choose a file to attach.');
    // Each file under the cap, but together over what one message may carry: the model's refusal, shown the same way.
    const atCap = { type: 'application/octet-stream', bytes: Buffer.alloc(MAX_ATTACHMENT_BYTES) };
    expect((await upload(staff, { company_id: '1', action: 'payment_declined' }, { name: 'one.bin', ...atCap })).status).to.equal(303);
    const over = await upload(staff, { company_id: '1', action: 'payment_declined' }, { name: 'two.bin', ...atCap });
    expect(over.status).to.equal(400);
    expect(over.text).to.contain('at most 20 MiB together');
    const twoFiles = await upload(staff, { company_id: '1', action: 'payment_declined' }, { name: 'a.txt', type: 'text/plain', bytes: Buffer.from('a') }, [{ name: 'b.txt', bytes: Buffer.from('b') }]);
    expect(twoFiles.status).to.equal(413);
    const [, second] = await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId });
    await staff.post('/admin/mail/templates/attachments/delete', { company_id: '1', action: 'payment_declined', email_attachment_id: String(second.id) });
    expect(await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId })).to.have.length(1);

    const deleted = await staff.post('/admin/mail/templates/attachments/delete', { company_id: '1', action: 'payment_declined', email_attachment_id: String(attachment.id) });
    expect(deleted.status, deleted.text).to.equal(303);
    expect(await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId })).to.deep.equal([]);
  });

  it('refuses an upload without the form’s token, and another company’s signature or attachment through this one', async () => {
    await ok(server, 'PUT', 'emails/edit', { action: 'account_welcome', vars: { subject: 'Welcome' } });
    const forged = await upload(
      Object.assign(Object.create(AdminClient.prototype), staff, { token: 'not-the-token' }) as AdminClient,
      { company_id: '1', action: 'account_welcome' },
      { name: 'x.txt', type: 'text/plain', bytes: Buffer.from('x') },
    );
    expect(forged.status).to.equal(403);

    const other = await newCompany(server, 'Other');
    const theirs = await ok(server, 'POST', 'emails/addSignature', { vars: { name: 'Theirs', text: 'Theirs' } }, other.auth);
    await ok(server, 'PUT', 'emails/edit', { action: 'account_welcome', vars: { subject: 'Theirs' } }, other.auth);
    const theirEmail = (await ok(server, 'GET', 'emails/getByType', { action: 'account_welcome' }, other.auth)).id;
    const [theirFile] = await ok(server, 'POST', 'emails/addAttachments', { email_id: theirEmail, files: [{ name: 't.txt', type: 'text/plain', content: 'eA==' }] }, other.auth);
    await staff.get('/admin/mail/signatures?company=1');
    expect((await staff.post('/admin/mail/signatures/delete', { company_id: '1', email_signature_id: String(theirs) })).status).to.equal(400);
    expect((await staff.post('/admin/mail/signatures/edit', { company_id: '1', email_signature_id: String(theirs), name: 'Mine', text: 'Mine' })).status).to.equal(404);
    expect((await staff.get(`/admin/mail/signatures/edit?company=1&email_signature_id=${theirs}`)).status).to.equal(404);
    expect((await staff.post('/admin/mail/templates/attachments/delete', { company_id: '1', action: 'account_welcome', email_attachment_id: String(theirFile) })).status).to.equal(400);
    expect(await ok(server, 'GET', 'emails/getSignature', { email_signature_id: theirs }, other.auth)).to.include({ name: 'Theirs' });
    expect(await ok(server, 'GET', 'emails/getAttachments', { email_id: theirEmail }, other.auth)).to.have.length(1);
  });

  it('shows a member without the settings area the pages without their forms and refuses their posts with 403, changing nothing', async () => {
    await addStaff(server.installation, 'helper', 'helper password 1');
    await staff.get('/admin/settings/staff');
    await staff.post('/admin/settings/staff/groups/presets', { company_id: '1' });
    const support = ((await ok(server, 'GET', 'staff_groups/getAll', {}, server.installationCredential)) as Array<{ id: number; name: string }>).find((g) => g.name === 'Support')!;
    const user = await ok(server, 'GET', 'users/getByUsername', { username: 'helper' }, server.installationCredential);
    const helperId = (await ok(server, 'GET', 'staff/getByUserId', { user_id: user.id }, server.installationCredential)).id;
    expect((await staff.post('/admin/settings/staff/assign', { company_id: '1', staff_id: String(helperId), staff_group_id: String(support.id) })).status).to.equal(303);
    const helper = new AdminClient(server.url);
    await helper.signIn('helper', 'helper password 1');

    const list = await helper.get('/admin/mail/signatures?company=1');
    expect(list.status).to.equal(200);
    expect(list.text).to.contain('but not change them').and.not.to.contain('action="/admin/mail/signatures/add"');
    const template = await helper.get('/admin/mail/templates/edit?company=1&action=account_welcome');
    expect(template.text).not.to.contain('action="/admin/mail/templates/attachments/add"');

    const count = (await signatures()).length;
    expect((await helper.post('/admin/mail/signatures/add', { company_id: '1', name: 'Helper', text: 'Helper' })).status).to.equal(403);
    expect(await signatures()).to.have.length(count);
    const emailId = (await welcome()).id;
    const files = (await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId })).length;
    const refused = await upload(helper, { company_id: '1', action: 'account_welcome' }, { name: 'h.txt', type: 'text/plain', bytes: Buffer.from('h') });
    expect(refused.status).to.equal(403);
    expect(await ok(server, 'GET', 'emails/getAttachments', { email_id: emailId })).to.have.length(files);
  });
});
