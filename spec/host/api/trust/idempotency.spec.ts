import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, TestServer } from '../../../support/test-server';
import { form } from '../billing/fixtures';
import { secondProcess, SecondProcess } from './support';
import { trustDb } from '../../../../core/identity/trust-tables';

describe('Idempotency-Key on writes', () => {
  let server: TestServer;
  let other: SecondProcess;
  before(async () => {
    server = await startTestServer();
    other = await secondProcess(server);
  });
  after(async () => {
    await other.close();
    await server.close();
  });

  const addClient = (key: string, email: string, via: { request: TestServer['request'] } = server) =>
    via.request('POST', '/api/clients/add.json', { body: form({ vars: { first_name: 'Idem', last_name: 'Potent', email } }), headers: { 'Idempotency-Key': key } });
  const clientCount = async () => (await server.request('GET', '/api/clients/getListCount.json')).json.response as number;

  it('replays the first answer (status and body) for a repeat, without running the call again', async () => {
    const before = await clientCount();
    const first = await addClient('order-1', 'one@example.com');
    expect(first.status).to.equal(200);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    const again = await addClient('order-1', 'one@example.com');
    expect(again.status).to.equal(200);
    expect(again.json).to.deep.equal(first.json);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    const elsewhere = await addClient('order-1', 'one@example.com', other);
    expect(elsewhere.json).to.deep.equal(first.json);
    expect(await clientCount()).to.equal(before + 1);
  });

  it('keeps no stored answer or parameter readable in the database: a new API key or a password is never in the table', async () => {
    const minted = await server.request('POST', '/api/api_keys/add.json', { body: 'vars[notes]=minted', headers: { 'Idempotency-Key': 'mint-1' } });
    expect(minted.status).to.equal(200);
    const newKey = minted.json.response.key as string;
    const user = await server.request('POST', '/api/users/add.json', {
      body: form({ vars: { username: 'sealed', new_password: 'hunter22', confirm_password: 'hunter22' } }),
      headers: { 'Idempotency-Key': 'user-1' },
    });
    expect(user.status).to.equal(200);
    const rows = await trustDb(server.installation.db).selectFrom('idempotency_keys').selectAll().where('key', 'in', ['mint-1', 'user-1']).execute();
    expect(rows).to.have.length(2);
    const stored = JSON.stringify(rows);
    expect(stored).not.to.contain(newKey);
    expect(stored).not.to.contain(minted.json.response.user);
    // The old fingerprint was a bare SHA-256 of the request: a guessed password could be checked against it.
    const bare = createHash('sha256')
      .update(`POST\n/api/users/add.json\n${JSON.stringify({ vars: { username: 'sealed', new_password: 'hunter22', confirm_password: 'hunter22' } })}`)
      .digest('hex');
    expect(rows.map((r) => r.fingerprint)).not.to.include(bare);
    const again = await server.request('POST', '/api/api_keys/add.json', { body: 'vars[notes]=minted', headers: { 'Idempotency-Key': 'mint-1' } });
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.json).to.deep.equal(minted.json);
  });

  it('replays a 400 as well: the same request fails the same way', async () => {
    const first = await addClient('bad-1', 'not-an-email');
    expect(first.status).to.equal(400);
    const again = await addClient('bad-1', 'not-an-email');
    expect(again.status).to.equal(400);
    expect(again.json).to.deep.equal(first.json);
  });

  it('answers 409 when the key is reused with other parameters, and changes nothing', async () => {
    const before = await clientCount();
    expect((await addClient('order-2', 'two@example.com')).status).to.equal(200);
    const reused = await addClient('order-2', 'someone-else@example.com');
    expect(reused.status).to.equal(409);
    expect(reused.json).to.deep.equal({ message: 'The Idempotency-Key was already used for a request with other parameters.' });
    const otherPath = await server.request('PUT', '/api/settings/set.json', { body: 'key=timezone&value=UTC', headers: { 'Idempotency-Key': 'order-2' } });
    expect(otherPath.status).to.equal(409);
    expect(await clientCount()).to.equal(before + 1);
  });

  it("keys are per credential: another credential's same key is its own", async () => {
    const mine = await addClient('shared-name', 'three@example.com');
    const theirs = await server.request('POST', '/api/clients/add.json', {
      body: form({ vars: { first_name: 'Idem', last_name: 'Potent', email: 'three@example.com' } }),
      headers: { 'Idempotency-Key': 'shared-name' },
      auth: server.installationCredential,
    });
    expect(theirs.status).to.equal(200);
    expect(theirs.json.response).not.to.equal(mine.json.response);
  });

  it('of concurrent requests with one key, across two processes, exactly one runs', async () => {
    const before = await clientCount();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => addClient('race-1', 'race@example.com', i % 2 ? other : server)));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 200 || s === 409),
      statuses.join(),
    ).to.equal(true);
    const ids = new Set(answers.filter((a) => a.status === 200).map((a) => a.json.response));
    expect(ids.size).to.equal(1);
    for (const busy of answers.filter((a) => a.status === 409)) expect(busy.json.message).to.match(/still being processed/);
    expect(await clientCount()).to.equal(before + 1);
  });

  it('refuses a malformed key with a 400 and ignores the header on reads', async () => {
    const res = await addClient('x'.repeat(256), 'four@example.com');
    expect(res.status).to.equal(400);
    expect(res.json.errors).to.have.property('Idempotency-Key');
    const read = await server.request('GET', '/api/clients/getListCount.json', { headers: { 'Idempotency-Key': 'read-1' } });
    const again = await server.request('GET', '/api/clients/getListCount.json', { headers: { 'Idempotency-Key': 'read-1' } });
    expect(again.headers.get('idempotent-replayed')).to.equal(null);
    expect(read.status).to.equal(200);
  });
});
