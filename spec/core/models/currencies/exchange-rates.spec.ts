import { expect } from 'chai';
import { Money } from '../../../../core/kernel/money';
import { runBilling } from '../../../../core/automation/billing-run';
import { install, SHIPPED_EXTENSIONS } from '../../../extensions/shipped';
import { startTestServer, TestServer } from '../../../support/test-server';
import { daily, ecbStandIn } from '../../../support/ecb-stand-in';
import { call, newCompany, ok } from '../../../host/api/billing/fixtures';

const rate = (units: string, perUsd: string) => new Money(units).dividedBy(perUsd).toDecimalPlaces(10).toFixed(10);

describe('currencies: exchange rates from a processor', () => {
  let server: TestServer;
  let ecb: Awaited<ReturnType<typeof ecbStandIn>>;
  const rates = async (auth?: any) => Object.fromEntries((await ok(server, 'GET', 'currencies/getAll', { company_id: auth ? 2 : 1 }, auth)).map((c: any) => [c.code, c.exchange_rate]));
  before(async () => {
    ecb = await ecbStandIn();
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS, extensionLimits: { testHosts: new Map([['www.ecb.europa.eu', ecb.url]]) } });
  });
  after(async () => {
    await server.close();
    await ecb.close();
  });

  it('lists the processors, and refuses to update through one the company has not installed', async () => {
    expect(await ok(server, 'GET', 'currencies/getExchangeRateProcessors')).to.deep.include({ dir: 'ecb_exchange_rates', name: 'ECB exchange rates', installed: false, selected: true });
    const before = await rates();
    const res = await call(server, 'POST', 'currencies/updateRates');
    expect(res.status).to.equal(400);
    expect(res.json.errors.exchange_rates_processor).to.have.property('unavailable');
    expect(await rates()).to.deep.equal(before);
    expect(ecb.state.requests).to.deep.equal([]);
  });

  it("sets each currency the processor quotes to its units for one unit of the company's default currency", async () => {
    await install(server, 'plugin_manager', 'vars[dir]=ecb_exchange_rates');
    expect((await ok(server, 'GET', 'currencies/getExchangeRateProcessors')).find((p: any) => p.dir === 'ecb_exchange_rates').installed).to.equal(true);
    await ok(server, 'POST', 'currencies/add', { vars: { code: 'CHF', exchange_rate: '0.9' } });
    expect(await ok(server, 'POST', 'currencies/updateRates')).to.equal(null);
    expect(ecb.state.requests).to.deep.equal(['/stats/eurofxref/eurofxref-daily.xml']);
    expect(await rates()).to.deep.equal({ CHF: '0.9000000000', EUR: rate('1', '1.0823'), GBP: rate('0.8561', '1.0823'), USD: '1.0000000000' });
    expect(await ok(server, 'GET', 'currencies/convert', { amount: '108.23', from_currency: 'USD', to_currency: 'EUR', company_id: 1 })).to.equal('100.0000');
  });

  it('keeps the rates when the processor fails or does not quote the default currency', async () => {
    const before = await rates();
    ecb.state.status = 503;
    const down = await call(server, 'POST', 'currencies/updateRates');
    expect([down.status, down.json.errors]).to.deep.equal([400, { processor: { unavailable: 'The ECB answered HTTP 503 for its daily rates; try again later.' } }]);
    ecb.state.status = 200;
    ecb.state.body = '<html>maintenance</html>';
    const garbage = await call(server, 'POST', 'currencies/updateRates');
    expect(garbage.status).to.equal(400);
    expect(JSON.stringify(garbage.json)).not.to.contain('maintenance');
    ecb.state.body = daily('2026-11-28', { USD: '1.1', JPY: '160' });
    await ok(server, 'PUT', 'settings/set', { key: 'default_currency', value: 'CHF' });
    const unquoted = await call(server, 'POST', 'currencies/updateRates');
    expect([unquoted.status, unquoted.json.errors]).to.deep.equal([400, { default_currency: { quoted: 'The exchange rate processor "ecb_exchange_rates" does not quote the default currency CHF.' } }]);
    await ok(server, 'PUT', 'settings/set', { key: 'default_currency', value: 'USD' });
    expect(await rates()).to.deep.equal(before);
  });

  it("another company's update changes only its own currencies", async () => {
    const before = await rates();
    const other = await newCompany(server, 'Other');
    expect((await call(server, 'POST', 'currencies/updateRates', {}, other.auth)).status).to.equal(400);
    await ok(server, 'POST', 'plugin_manager/add', { vars: { dir: 'ecb_exchange_rates' } }, other.auth);
    await ok(server, 'POST', 'currencies/updateRates', {}, other.auth);
    expect((await rates(other.auth)).EUR).to.equal(rate('1', '1.1'));
    expect(await rates()).to.deep.equal(before);
  });

  it('the daily exchange_rates task updates the companies that turned it on', async () => {
    ecb.state.body = daily('2026-11-30', { USD: '1.25', GBP: '0.85' });
    const run = (now: string) => runBilling(server.installation, { now, tasks: ['exchange_rates'], companyId: 1 });
    await run('2026-11-30 12:00:00');
    expect((await rates()).EUR).to.not.equal(rate('1', '1.25'));
    await ok(server, 'PUT', 'settings/set', { key: 'exchange_rates_auto_update', value: 'true' });
    await run('2026-12-01 12:00:00');
    expect(await rates()).to.include({ EUR: rate('1', '1.25'), GBP: rate('0.85', '1.25') });
  });
});
