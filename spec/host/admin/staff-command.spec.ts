import { expect } from 'chai';
import { runCliWithInput as tally } from '../../support/cli';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient } from './support/admin-client';

describe('tally staff create', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('creates a staff member from a password on standard input, who can then sign in', async () => {
    const res = await tally(server.database.url, ['staff', 'create', '--username', 'avery', '--email', 'avery@example.com', '--password-stdin'], 'piped password 1\nignored second line\n');
    expect(res.code, res.stderr).to.equal(0);
    expect(res.stdout).to.contain('Created staff member avery');
    expect(res.stdout + res.stderr).not.to.contain('piped password');
    const client = new AdminClient(server.url);
    expect((await client.signIn('avery', 'piped password 1')).status).to.equal(303);
    const staff = await server.installation.db.selectFrom('staff').selectAll().executeTakeFirstOrThrow();
    expect(staff).to.include({ company_id: 1, role: 'admin', status: 'active', email: 'avery@example.com' });
  });

  it('takes --password and --company', async () => {
    await server.installation.call('companies', 'add', { vars: { name: 'Second' } }, { companyId: 1, user: 'spec' });
    const res = await tally(server.database.url, ['staff', 'create', '--username', 'blake', '--email', 'blake@example.com', '--password', 'blake password', '--company', '2', '--first-name', 'Blake']);
    expect(res.code, res.stderr).to.equal(0);
    const row = await server.installation.db
      .selectFrom('staff')
      .innerJoin('users', 'users.id', 'staff.user_id')
      .select(['staff.company_id', 'staff.first_name'])
      .where('users.username', '=', 'blake')
      .executeTakeFirstOrThrow();
    expect(row).to.deep.equal({ company_id: 2, first_name: 'Blake' });
  });

  it('refuses bad input with the reason and writes nothing', async () => {
    const cases: Array<[string[], string, RegExp]> = [
      [['--username', 'casey', '--email', 'not-an-email', '--password', 'casey password'], '', /valid email address/],
      [['--username', 'casey', '--email', 'c@example.com', '--password', 'short'], '', /at least 6 characters/],
      [['--username', 'casey', '--email', 'c@example.com', '--password', 'casey password', '--company', '99'], '', /Invalid company ID/],
      [['--username', 'avery', '--email', 'c@example.com', '--password', 'casey password'], '', /already been taken/],
      [['--username', 'casey', '--email', 'c@example.com'], '', /exactly one of --password-stdin and --password/],
      [['--username', 'casey', '--email', 'c@example.com', '--password', 'x1234567', '--password-stdin'], 'y1234567\n', /exactly one of/],
    ];
    for (const [args, stdin, message] of cases) {
      const res = await tally(server.database.url, ['staff', 'create', ...args], stdin);
      expect(res.code, args.join(' ')).to.equal(1);
      expect(res.stderr, args.join(' ')).to.match(message);
    }
    expect(await server.installation.db.selectFrom('users').select('id').where('username', '=', 'casey').executeTakeFirst()).to.equal(undefined);
  });
});
