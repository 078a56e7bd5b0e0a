import { expect } from 'chai';
import { installSpecProbe } from '../../support/spec-models';
import { Credential, startTestServer, TestServer } from '../../support/test-server';

/**
 * The seed's timestamp forms (section 7) read over HTTP in the caller's company timezone, through
 * the kernel's parser, by a probe method: `spec_probe/stamp?at=...` answers the UTC timestamp.
 */
describe('timestamps over HTTP', () => {
  let server: TestServer;
  let tokyo: Credential;
  before(async () => {
    server = await startTestServer();
    installSpecProbe(server.installation);
    expect((await server.request('PUT', '/api/settings/set.json', { body: 'key=timezone&value=America/New_York' })).status).to.equal(200);
    const company = await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Tokyo office', auth: server.installationCredential });
    tokyo = await server.credentialFor(company.json.response);
    expect((await server.request('PUT', '/api/settings/set.json', { body: 'key=timezone&value=Asia/Tokyo', auth: tokyo })).status).to.equal(200);
  });
  after(() => server.close());

  const stamp = (at: string, auth?: Credential) => server.request('GET', `/api/spec_probe/stamp.json?${new URLSearchParams({ at })}`, { auth });

  const cases: [input: string, utc: string][] = [
    ['2021-12-31 12:00:00', '2021-12-31 17:00:00'],
    ['2021-12-31 12:00:00 +02:00', '2021-12-31 10:00:00'],
    ['2021-12-31 12:00:00 -05:30', '2021-12-31 17:30:00'],
    ['2021-12-31 12:00:00 UTC', '2021-12-31 12:00:00'],
    ['2021-12-31T12:00:00Z', '2021-12-31 12:00:00'],
    ['2021-07-01 12:00:00', '2021-07-01 16:00:00'],
  ];
  for (const [input, utc] of cases) {
    it(`reads ${input} in a New York company as ${utc} UTC`, async () => {
      expect((await stamp(input)).json).to.deep.equal({ response: utc });
    });
  }

  it("reads a zoneless time in the caller's own company timezone", async () => {
    expect((await stamp('2021-12-31 12:00:00', tokyo)).json).to.deep.equal({ response: '2021-12-31 03:00:00' });
    expect((await stamp('2021-12-31 12:00:00 UTC', tokyo)).json).to.deep.equal({ response: '2021-12-31 12:00:00' });
  });

  for (const bad of ['2021-12-31T12:00:00', '31/12/2021 12:00', '2021-02-30 00:00:00', '2021-12-31 24:00:00', '2021-12-31 12:00:00 +25:00', 'yesterday', "2021-12-31' OR 1=1"]) {
    it(`answers 400 format to ${JSON.stringify(bad)}`, async () => {
      const res = await stamp(bad);
      expect(res.status).to.equal(400);
      expect(res.json.errors.at).to.have.property('format');
    });
  }

  it('answers timestamps it stores in UTC as YYYY-MM-DD hh:mm:ss', async () => {
    const company = await server.request('GET', '/api/companies/get.json?company_id=1');
    expect(company.json.response.date_added).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });
});
