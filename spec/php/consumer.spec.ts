import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { phpAvailable } from '../support/php';
import { startTestServer, TestServer } from '../support/test-server';
import { registerEcho } from '../sdk/support/echo-model';

// The script is not compiled: it is read from the source tree beside this spec's source.
const SCRIPT = path.resolve(__dirname, '../../../spec/php/consumer.php');

/** Runs the PHP consumer asynchronously: the server it calls lives in this process's event loop. */
function runConsumer(server: TestServer): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('php', [SCRIPT, server.url, server.credential.user, server.credential.key]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('a PHP 8.2 consumer written against the contract', function () {
  let server: TestServer;
  let seen: Record<string, any>;
  before(async function () {
    if (!phpAvailable) return this.skip();
    server = await startTestServer();
    registerEcho(server);
    const run = await runConsumer(server);
    expect(run.status, run.stderr + run.stdout).to.equal(0);
    seen = JSON.parse(run.stdout);
  });
  after(() => server?.close());

  it('creates a user with a POST form body and reads it back with a GET query', () => {
    expect(seen.add).to.deep.equal({ status: 200, id_is_int: true, errors: false });
    expect(seen.get).to.deep.equal({ status: 200, username: 'php_consumer', has_password: false });
  });

  it('edits with PUT, checks a log-in, and deletes with DELETE', () => {
    expect(seen.edit).to.deep.equal({ status: 200, username: 'php consumer & co' });
    expect(seen.auth).to.deep.equal({ linked: 200, status: 200, response: true });
    expect(seen.delete).to.deep.equal({ status: 200, after: false });
  });

  it('round-trips systemEncrypt and systemDecrypt', () => {
    expect(seen.encryption).to.deep.equal({ round_trip: 'hello from PHP', base64: true });
  });

  it("reads the php format with PHP's own unserialize, records as stdClass, and the xml format", () => {
    expect(seen.php_format).to.deep.equal({ status: 200, class: 'stdClass', username: 'php consumer & co' });
    expect(seen.xml_format).to.deep.equal({ status: 200, has_root: true, has_username: true });
  });

  it('gets a 400 with the errors map, and a named error for flat fields instead of vars[...]', () => {
    expect(seen.invalid).to.deep.equal({
      status: 400,
      errors: { username: { empty: 'Please enter a username.' } },
      message: 'The request cannot be fulfilled due to bad syntax.',
    });
    expect(seen.flat_fields.status).to.equal(400);
    expect(seen.flat_fields.errors.username.unknown).to.contain('vars[username]');
  });

  it('sends 300 nested lines with http_build_query and they arrive as a list, in order', () => {
    expect(seen.nested).to.deep.equal({
      status: 200,
      count: 300,
      is_list: true,
      last: { description: 'Line 299: support & hosting', amount: '448.5000', qty: '300', tags: ['a', 'b'] },
      delivery: ['email'],
      paid: '1',
    });
  });

  it('authenticates with HTTP Basic too, and gets 401 with the contract message for a wrong key', () => {
    expect(seen.basic_auth).to.deep.equal({ status: 200 });
    expect(seen.wrong_key).to.deep.equal({ status: 401, errors: { error: { message: 'The authorization details given appear to be invalid.' } } });
  });
});
