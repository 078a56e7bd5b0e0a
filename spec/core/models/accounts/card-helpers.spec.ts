import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, call, newCompany, ok } from '../../../host/api/billing/fixtures';
import { install, SHIPPED_EXTENSIONS } from '../../../extensions/shipped';

describe('accounts: card helpers and cards expiring soon', () => {
  let server: TestServer;
  let card: number;
  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    await install(server, 'gateway_manager', 'vars[dir]=test_card&vars[settings][secret_key]=test_spec');
  });
  after(() => server.close());

  it('checks and names a card number sent in the body', async () => {
    expect(await ok(server, 'POST', 'accounts/luhnValid', { card_number: '4242 4242 4242 4242' })).to.equal(true);
    expect(await ok(server, 'POST', 'accounts/luhnValid', { card_number: '4242424242424241' })).to.equal(false);
    expect(await ok(server, 'POST', 'accounts/creditCardType', { card_number: '378282246310005' })).to.equal('amex');
    expect(await ok(server, 'POST', 'accounts/creditCardType', { card_number: '99' })).to.equal(null);
  });

  it("lists the active clients' cards expiring in the month given, of the caller's company only", async () => {
    const clientId = await addClient(server);
    const contact = (await ok(server, 'GET', 'clients/get', { client_id: clientId })).contact_id;
    card = await ok(server, 'POST', 'accounts/addCc', {
      vars: { contact_id: contact, first_name: 'Ada', last_name: 'L', number: '4242424242424242', expiration: '203011', security_code: '123', currency: 'USD' },
    });
    await ok(server, 'POST', 'accounts/addCc', {
      vars: { contact_id: contact, first_name: 'Ada', last_name: 'L', number: '5555555555554444', expiration: '203012', security_code: '123', currency: 'USD' },
    });
    const inactive = await addClient(server, { status: 'inactive' });
    const inactiveContact = (await ok(server, 'GET', 'clients/get', { client_id: inactive })).contact_id;
    await ok(server, 'POST', 'accounts/addCc', {
      vars: { contact_id: inactiveContact, first_name: 'I', last_name: 'N', number: '4242424242424242', expiration: '203011', security_code: '123', currency: 'USD' },
    });
    const expiring = await ok(server, 'GET', 'accounts/getCardsExpireSoon', { date: '2030-11-15' });
    expect(expiring.map((a: any) => a.id)).to.deep.equal([card]);
    expect(expiring[0]).to.include({ last4: '4242', expiration: '203011' });
    expect(await ok(server, 'GET', 'accounts/getCardsExpireSoon', { date: '2030-10-15' })).to.deep.equal([]);
    const bad = await call(server, 'GET', 'accounts/getCardsExpireSoon', { date: 'next month' });
    expect([bad.status, Object.keys(bad.json.errors)]).to.deep.equal([400, ['date']]);
    const other = await newCompany(server, 'Other');
    expect(await ok(server, 'GET', 'accounts/getCardsExpireSoon', { date: '2030-11-15' }, other.auth)).to.deep.equal([]);
  });
});
