import { callable, ExtensionContext, int, object, shape, singleValue, TallyError } from '../../../host/extensions/kit';
import { SERVER, SERVER_EDIT, SERVER_VARS, SERVERS } from './fields';

const HOSTNAME = /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** The servers services are provisioned on, each with the number of accounts it may hold (0: no limit). */
export class Servers {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: SERVER_VARS,
    returns: shape.int({ description: 'The new server id.' }),
    description: 'Add a server from vars[name], vars[hostname], optional vars[max_accounts] (0 = no limit) and vars[status] (active, inactive). Returns its id.',
  })
  async add(vars: Record<string, unknown>) {
    await this.ctx.assertValid(vars, this.rules(false));
    const row = await this.ctx.db
      .insertInto('generic_servers')
      .values({
        company_id: this.ctx.companyId,
        name: String(vars.name).trim(),
        hostname: String(vars.hostname).trim().toLowerCase(),
        max_accounts: Number(vars.max_accounts ?? 0),
        status: String(vars.status ?? 'active'),
        date_added: this.ctx.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({
    verb: 'PUT',
    params: [int('server_id'), object('vars')],
    vars: SERVER_EDIT,
    returns: shape.orNull(SERVER),
    description: 'Change any of vars[name], vars[hostname], vars[max_accounts], vars[status]. Returns the server.',
  })
  async edit(serverId: number, vars: Record<string, unknown>) {
    if (!(await this.get(serverId))) throw TallyError.invalid({ server_id: { exists: 'Invalid server ID.' } });
    await this.ctx.assertValid(vars, this.rules(true));
    const changes: Record<string, unknown> = {};
    if (vars.name !== undefined) changes.name = String(vars.name).trim();
    if (vars.hostname !== undefined) changes.hostname = String(vars.hostname).trim().toLowerCase();
    if (vars.max_accounts !== undefined) changes.max_accounts = Number(vars.max_accounts);
    if (vars.status !== undefined) changes.status = String(vars.status);
    if (Object.keys(changes).length) await this.ctx.db.updateTable('generic_servers').set(changes).where('id', '=', serverId).execute();
    return this.get(serverId);
  }

  @callable({
    verb: 'GET',
    params: [int('server_id')],
    returns: shape.orNull(SERVER),
    description: 'A server with the number of accounts on it (cancelled ones do not count); null when there is none.',
  })
  async get(serverId: number) {
    const [server] = await this.withAccounts((q) => q.where('generic_servers.id', '=', serverId));
    return server ?? null;
  }

  @callable({ verb: 'GET', returns: SERVERS, description: "The company's servers with their account counts, by name." })
  getList() {
    return this.withAccounts((q) => q.orderBy('generic_servers.name'));
  }

  @callable({ verb: 'DELETE', params: [int('server_id')], returns: shape.nothing(), description: 'Remove a server without live services (a missing one is a no-op).' })
  async delete(serverId: number) {
    const server = await this.get(serverId);
    if (!server) return null;
    if (server.accounts > 0) throw TallyError.invalid({ server_id: { in_use: `The server still holds ${server.accounts} service(s); cancel or move them first.` } });
    await this.ctx.db.deleteFrom('generic_server_services').where('server_id', '=', serverId).execute();
    await this.ctx.db.deleteFrom('generic_servers').where('id', '=', serverId).execute();
    return null;
  }

  /** Servers with their live accounts counted (PostgreSQL counts as text, hence the Number). */
  private async withAccounts(narrow: (query: any) => any) {
    const query = this.ctx.db
      .selectFrom('generic_servers')
      .leftJoin('generic_server_services', (join) => join.onRef('generic_server_services.server_id', '=', 'generic_servers.id').on('generic_server_services.status', '!=', 'cancelled'))
      .select(['generic_servers.id', 'generic_servers.name', 'generic_servers.hostname', 'generic_servers.max_accounts', 'generic_servers.status', 'generic_servers.date_added'])
      .select((eb) => eb.fn.count('generic_server_services.id').as('accounts'))
      .where('generic_servers.company_id', '=', this.ctx.companyId)
      .groupBy(['generic_servers.id', 'generic_servers.name', 'generic_servers.hostname', 'generic_servers.max_accounts', 'generic_servers.status', 'generic_servers.date_added']);
    const rows: Array<Record<string, any>> = await narrow(query).execute();
    return rows.map((r) => ({ ...r, accounts: Number(r.accounts) }));
  }

  private rules(ifSet: boolean) {
    const { is } = this.ctx;
    return {
      name: { ifSet, rules: [singleValue, { code: 'empty', message: 'Please enter a server name.', check: is.present }] },
      hostname: { ifSet, rules: [{ code: 'format', message: 'Please enter a valid hostname.', check: (v: unknown) => typeof v === 'string' && HOSTNAME.test(v.trim()) }] },
      max_accounts: { ifSet: true, rules: [{ code: 'format', message: 'max_accounts must be a whole number, 0 for no limit.', check: (v: unknown) => is.integer(v) && Number(v) >= 0 }] },
      status: { ifSet: true, rules: [{ code: 'format', message: 'The status must be active or inactive.', check: is.oneOf(['active', 'inactive']) }] },
    };
  }
}
