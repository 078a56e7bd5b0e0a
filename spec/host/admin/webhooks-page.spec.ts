import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { call, ok } from '../api/billing/fixtures';
import { addStaff, AdminClient } from './support/admin-client';

describe('admin area: webhooks (endpoints, their health and recent attempts)', () => {
  let server: TestServer;
  let staff: AdminClient;
  let receiver: WebhookReceiver;
  before(async () => {
    server = await startTestServer({ events: { pollMs: 20, retryDelaysMs: [60_000] } });
    receiver = await WebhookReceiver.start();
    await ok(server, 'POST', 'settings/setSettings', { settings: { webhooks_allow_http: 'true', webhooks_allow_private_addresses: 'true' } }, server.installationCredential);
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  it('adds an endpoint showing its secret once, then shows its health and each attempt', async () => {
    await staff.get('/admin/settings/webhooks?company=1');
    const added = await staff.post('/admin/settings/webhooks/add', { company_id: '1', url: receiver.url, event_types: 'Clients.add', description: 'CRM' });
    expect(added.status).to.equal(200);
    const secret = /id="new-secret" readonly value="(whsec_[^"]+)"/.exec(added.text)![1];
    receiver.secrets = [secret];
    receiver.answer = () => 503;
    await ok(server, 'POST', 'clients/add', { vars: { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' } });
    await receiver.until(() => receiver.received.length === 1);
    const page = await waitForPage(staff, (text) => text.includes('1 pending (1 retrying)'));
    expect(page).to.contain('Clients.add').and.to.contain('refused 503').and.not.to.contain(secret);
    const id = (await ok(server, 'GET', 'webhooks/getList'))[0].id;
    receiver.answer = () => 200;
    const resent = await staff.post('/admin/settings/webhooks/action', { company_id: '1', webhook_id: String(id), action: 'resend' });
    expect(resent.status).to.equal(303);
    await receiver.until(() => receiver.received.some((r) => r.answered === 200 && r.verifiedBy === 0));
    await waitForPage(staff, (text) => text.includes('1 delivered in the last 24 hours'));
    const disabled = await staff.post('/admin/settings/webhooks/action', { company_id: '1', webhook_id: String(id), action: 'disable' });
    expect(disabled.status).to.equal(303);
    expect((await ok(server, 'GET', 'webhooks/get', { webhook_id: id })).status).to.equal('disabled');
  });

  it('refuses a bad URL with the reason, and a post without the CSRF token', async () => {
    await staff.get('/admin/settings/webhooks?company=1');
    const bad = await staff.post('/admin/settings/webhooks/add', { company_id: '1', url: 'ftp://example.com' });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.contain('The URL must start with https://');
    const forged = await staff.post('/admin/settings/webhooks/add', { _csrf: null, company_id: '1', url: 'https://example.com/hook' });
    expect(forged.status).to.equal(403);
    expect((await call(server, 'GET', 'webhooks/getList')).json.response).to.have.length(1);
  });
});

async function waitForPage(staff: AdminClient, check: (text: string) => boolean): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const page = await staff.get('/admin/settings/webhooks?company=1');
    if (check(page.text)) return page.text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the page never showed it');
}
