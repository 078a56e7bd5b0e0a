import { expect } from 'chai';
import { convert } from 'xmlbuilder2';
import { assembleInstallation } from '../../../host/assemble-installation';
import { runCli } from '../../support/cli';
import { phpAvailable, phpUnserialize } from '../../support/php';
import { createTestDatabase } from '../../support/test-database';
import { startTestServer, TestServer } from '../../support/test-server';

/** `tally api/<model>/<method>.<format> -u -k -m -p`: the same call as over HTTP, run in-process. */
describe('the command-line form of the API', () => {
  let server: TestServer;
  let user: string;
  let key: string;
  let userId: number;
  before(async () => {
    server = await startTestServer();
    ({ user, key } = server.credential);
    const added = await server.request('POST', '/api/users/add.json', { body: 'vars[username]=ada&vars[new_password]=secret1&vars[confirm_password]=secret1' });
    userId = added.json.response;
  });
  after(() => server.close());

  const cli = (...args: string[]) => runCli(server.database.url, args);

  it('prints the formatted body and exits 0 on success', async () => {
    const res = await cli('api/users/get.json', '-u', user, '-k', key, '-m', 'GET', '-p', `user_id=${userId}`);
    expect(res.code).to.equal(0);
    const body = JSON.parse(res.stdout);
    expect(body.response).to.include({ id: userId, username: 'ada' });
    expect(res.stdout.trim()).to.equal((await server.request('GET', `/api/users/get.json?user_id=${userId}`)).text);
  });

  it('accepts the long forms -user -key -method -params', async () => {
    const res = await cli('api/users/get.json', '-user', user, '-key', key, '-method', 'GET', '-params', `user_id=${userId}`);
    expect(res.code).to.equal(0);
    expect(JSON.parse(res.stdout).response.username).to.equal('ada');
  });

  it('runs a POST with URL-encoded bracket parameters, writing to the same database', async () => {
    const res = await cli('api/users/add.json', '-u', user, '-k', key, '-m', 'POST', '-p', 'vars[username]=grace hopper&vars[new_password]=secret%261&vars[confirm_password]=secret%261');
    expect(res.code, res.stderr).to.equal(0);
    const id = JSON.parse(res.stdout).response;
    expect((await server.request('GET', `/api/users/get.json?user_id=${id}`)).json.response.username).to.equal('grace hopper');
    // type=any (the default) needs a link to a staff member, client or contact, as the reference.
    expect((await server.request('POST', '/api/clients/add.json', { body: `vars[first_name]=Grace&vars[last_name]=Hopper&vars[email]=grace@example.com&vars[user_id]=${id}` })).status).to.equal(200);
    const login = 'username=grace hopper&vars[username]=grace hopper&vars[password]=secret%261';
    expect(JSON.parse((await cli('api/users/auth.json', '-u', user, '-k', key, '-m', 'POST', '-p', login)).stdout)).to.deep.equal({ response: true });
  });

  it("reads TALLY_USER and TALLY_KEY, as the README's quick start exports them, and says which credentials it used", async () => {
    const fromEnv = await runCli(server.database.url, ['api/users/get.json', '-p', `user_id=${userId}`], { TALLY_USER: user, TALLY_KEY: key });
    expect(fromEnv.code, fromEnv.stderr).to.equal(0);
    expect(JSON.parse(fromEnv.stdout).response.username).to.equal('ada');
    expect(fromEnv.stderr)
      .to.contain(`Credentials: user ${JSON.stringify(user)} from TALLY_USER, key from TALLY_KEY.`)
      .and.not.contain(key);
    // An option wins over the environment, each on its own.
    const wrongKey = await runCli(server.database.url, ['api/users/get.json', '-k', 'wrong', '-p', `user_id=${userId}`], { TALLY_USER: user, TALLY_KEY: key });
    expect(wrongKey.code).to.equal(1);
    expect(wrongKey.stderr).to.contain(`Credentials: user ${JSON.stringify(user)} from TALLY_USER, key from -k.`);
    const none = await runCli(server.database.url, ['api/users/get.json', '-p', `user_id=${userId}`], { TALLY_USER: '', TALLY_KEY: '' });
    expect(none.code).to.equal(1);
    expect(none.stderr).to.contain('Credentials: none given (use -u and -k, or export TALLY_USER and TALLY_KEY).');
  });

  it('exits non-zero with the error body on 400, 401 and 404', async () => {
    const bad = await cli('api/users/get.json', '-u', user, '-k', key, '-p', 'user_id=abc');
    expect(bad.code).not.to.equal(0);
    expect(JSON.parse(bad.stdout).errors.user_id).to.have.property('format');
    const unauthorized = await cli('api/users/get.json', '-u', user, '-k', 'wrong', '-p', 'user_id=1');
    expect(unauthorized.code).not.to.equal(0);
    expect(JSON.parse(unauthorized.stdout)).to.deep.equal({ message: 'The authorization details given appear to be invalid.' });
    const missing = await cli('api/nosuch/get.json', '-u', user, '-k', key);
    expect(missing.code).not.to.equal(0);
    expect(JSON.parse(missing.stdout)).to.deep.equal({ message: 'The requested resource does not exist.' });
  });

  it('prints xml and php like the HTTP form', async () => {
    const xml = await cli('api/users/get.xml', '-u', user, '-k', key, '-p', `user_id=${userId}`);
    expect(xml.code).to.equal(0);
    expect((convert(xml.stdout, { format: 'object' }) as any).users.response.username).to.equal('ada');
    const php = await cli('api/users/get.php', '-u', user, '-k', key, '-p', `user_id=${userId}`);
    expect(php.code).to.equal(0);
    if (phpAvailable) expect((phpUnserialize(php.stdout.replace(/\n$/, '')).value as any).response.username).to.equal('ada');
    // A label map is a PHP array, as over HTTP (the method's declared answer reaches the renderer).
    const labels = await cli('api/clients/getStatusTypes.php', '-u', user, '-k', key);
    expect(labels.stdout.trim()).to.equal((await server.request('GET', '/api/clients/getStatusTypes.php')).text);
    expect(labels.stdout).to.match(/^a:1:\{s:8:"response";a:3:/);
  });

  it('gives a clear message and a non-zero exit for bad options', async () => {
    const unknown = await cli('api/users/get.json', '-u', user, '-k', key, '-x', '1');
    expect(unknown.code).not.to.equal(0);
    expect(unknown.stderr).to.match(/Unknown option -x\. Use -u USER -k KEY/);
    expect(unknown.stdout).to.equal('');
    const noValue = await cli('api/users/get.json', '-u');
    expect(noValue.code).not.to.equal(0);
    expect(noValue.stderr).to.match(/-u needs a value/);
    const verb = await cli('api/users/get.json', '-u', user, '-k', key, '-m', 'PATCH');
    expect(verb.code).not.to.equal(0);
    expect(JSON.parse(verb.stdout).message).to.match(/Use GET, POST, PUT or DELETE/);
  });

  it('works with no server running', async () => {
    const database = await createTestDatabase();
    try {
      const installation = await assembleInstallation({ databaseUrl: database.url });
      const credential = (await installation.call('api_keys', 'add', { vars: {} }, { companyId: 1, user: 'spec' })) as { user: string; key: string };
      await installation.close();
      const res = await runCli(database.url, ['api/users/getListCount.json', '-u', credential.user, '-k', credential.key]);
      expect(res.code, res.stderr).to.equal(0);
      expect(JSON.parse(res.stdout)).to.deep.equal({ response: 0 });
    } finally {
      await database.drop();
    }
  });
});
