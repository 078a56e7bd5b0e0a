import { expect } from 'chai';
import { ECHO } from './support/echo-model';
import { useSdkServer } from './support/sdk-server';

/** An invoice-shaped vars object with `count` lines, every value a string as it arrives over a form. */
function invoiceVars(count: number) {
  return {
    client_id: '7',
    date_billed: '2021-12-31 12:00:00 +02:00',
    currency: 'USD',
    delivery: ['email', 'paper'],
    lines: Array.from({ length: count }, (_, i) => ({
      description: `Line ${i}: hosting & support (50% off) — ünïcode`,
      amount: (i * 1.25).toFixed(4),
      qty: String(i + 1),
      tags: [`t${i}`, 'shared'],
      meta: { sku: `SKU-${i}`, options: { colour: i % 2 ? 'red' : 'blue' } },
    })),
  };
}

describe('sdk: nested parameters with hundreds of lines', () => {
  const sdk = useSdkServer();

  for (const verb of ['POST', 'PUT'] as const) {
    it(`${verb}: 500 lines arrive as a list of 500, in order, every field intact`, async () => {
      const vars = invoiceVars(500);
      const res = await sdk.client.request<typeof vars>(verb, ECHO, 'echo', { vars });
      expect(res.status(), res.raw().slice(0, 300)).to.equal(200);
      const echoed = res.response()!;
      expect(echoed.lines).to.be.an('array').with.lengthOf(500);
      expect(echoed).to.deep.equal(vars);
    });
  }

  for (const verb of ['GET', 'DELETE'] as const) {
    it(`${verb}: 30 lines fit in the query string (Node's 16 KiB request-head limit) and arrive intact`, async () => {
      const vars = invoiceVars(30);
      const res = await sdk.client.request<typeof vars>(verb, ECHO, 'echo', { vars });
      expect(res.status(), res.raw().slice(0, 300)).to.equal(200);
      expect(res.response()).to.deep.equal(vars);
    });
  }

  it("a query string over the sdk.server's limit answers 431 as a result, not an exception: send big payloads by POST or PUT", async () => {
    const res = await sdk.client.get(ECHO, 'echo', { vars: invoiceVars(200) });
    expect(res.status()).to.equal(431);
    expect(res.response()).to.equal(null);
  });

  it('numbers, booleans and Dates arrive as the server reads them from a form', async () => {
    const res = await sdk.client.post(ECHO, 'echo', {
      vars: { n: 1.5, big: 12345678901234567890n, yes: true, no: false, at: new Date(Date.UTC(2021, 11, 31, 12, 0, 0)), skipped: null, empty: [] },
    });
    expect(res.response()).to.deep.equal({ n: '1.5', big: '12345678901234567890', yes: '1', no: '0', at: '2021-12-31T12:00:00Z' });
  });

  it('an empty top-level object is sent, so a required set of values is present', async () => {
    const res = await sdk.client.post(ECHO, 'echo', { vars: {} });
    expect(res.status()).to.equal(200);
    expect(res.response()).to.deep.equal({});
  });
});
