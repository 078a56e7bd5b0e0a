import { randomBytes } from 'node:crypto';
import { callable, ExtensionContext, int, object, shape, TallyError } from '../../../host/extensions/kit';
import { PLAN_VARS, PROVISION_VARS, PROVISIONED, SERVICE, SERVICES } from './fields';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const TRANSITIONS: Record<string, { from: string[]; to: string; done: string }> = {
  suspend: { from: ['active'], to: 'suspended', done: 'suspended' },
  unsuspend: { from: ['suspended'], to: 'active', done: 'unsuspended' },
  cancel: { from: ['active', 'suspended'], to: 'cancelled', done: 'cancelled' },
};

/**
 * Services provisioned on a server: an account with a username made from the domain and a random
 * password (shown once, stored with systemEncrypt), then suspended, unsuspended or cancelled.
 */
export class Services {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: PROVISION_VARS,
    returns: PROVISIONED,
    description:
      'Provision vars[domain] for vars[client_id], on vars[server_id] or else the active server with the most room, optionally on vars[plan]. Returns { service_id, server_id, hostname, username, password }: the password is shown only here.',
  })
  async provision(vars: Record<string, unknown>) {
    const domain = String(vars.domain ?? '')
      .trim()
      .toLowerCase();
    await this.ctx.assertValid(
      { ...vars, domain },
      {
        client_id: [
          {
            code: 'exists',
            message: 'Invalid client ID.',
            check: async (v: unknown) => this.ctx.is.integer(v) && !!(await this.ctx.models.clients.get({ client_id: Number(v), get_settings: false })),
          },
        ],
        domain: [{ code: 'format', message: 'Please enter a valid domain name.', check: (v: string) => DOMAIN.test(v) }],
        server_id: {
          ifSet: true,
          rules: [{ code: 'exists', message: 'Invalid server ID.', check: async (v: unknown) => this.ctx.is.integer(v) && !!(await this.servers().where('id', '=', Number(v)).executeTakeFirst()) }],
        },
      },
    );
    const server = await this.pickServer(vars.server_id === undefined ? await this.rowServer(vars.module_row) : Number(vars.server_id));
    const username = await this.freeUsername(server.id, domain);
    const password = randomBytes(12).toString('base64url');
    const now = this.ctx.now();
    const row = await this.ctx.db
      .insertInto('generic_server_services')
      .values({
        company_id: this.ctx.companyId,
        server_id: server.id,
        client_id: Number(vars.client_id),
        domain,
        username,
        password: await this.ctx.models.encryption.systemEncrypt({ value: password }),
        plan: planOf(vars.plan),
        status: 'active',
        date_added: now,
        date_updated: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    this.ctx.log.info(`provisioned ${domain} on ${server.hostname}`);
    return { service_id: row.id, server_id: server.id, hostname: server.hostname, username, password };
  }

  @callable({ verb: 'GET', params: [int('service_id')], returns: shape.orNull(SERVICE), description: 'A service (never its password), or null.' })
  async get(serviceId: number) {
    const row = await this.query().where('id', '=', serviceId).executeTakeFirst();
    return row ?? null;
  }

  @callable({
    verb: 'GET',
    params: [int('server_id', { default: null }), int('client_id', { default: null })],
    returns: SERVICES,
    description: 'Services, optionally of one server and one client, newest first.',
  })
  getList(serverId: number | null, clientId: number | null) {
    let query = this.query();
    if (serverId !== null) query = query.where('server_id', '=', serverId);
    if (clientId !== null) query = query.where('client_id', '=', clientId);
    return query.orderBy('id', 'desc').execute();
  }

  @callable({ verb: 'PUT', params: [int('service_id')], returns: SERVICE, description: 'Suspend an active service. Returns it.' })
  suspend(serviceId: number) {
    return this.move(serviceId, 'suspend');
  }

  @callable({ verb: 'PUT', params: [int('service_id')], returns: SERVICE, description: 'Reactivate a suspended service. Returns it.' })
  unsuspend(serviceId: number) {
    return this.move(serviceId, 'unsuspend');
  }

  @callable({ verb: 'PUT', params: [int('service_id')], returns: SERVICE, description: 'Cancel a service; its place on the server is freed. Returns it.' })
  cancel(serviceId: number) {
    return this.move(serviceId, 'cancel');
  }

  @callable({ verb: 'PUT', params: [int('service_id')], returns: SERVICE, description: 'Record a paid renewal of an active or suspended service. Returns it.' })
  async renew(serviceId: number) {
    const service = await this.get(serviceId);
    if (!service) throw TallyError.invalid({ service_id: { exists: 'Invalid service ID.' } });
    if (service.status === 'cancelled') throw TallyError.invalid({ status: { transition: 'A cancelled service cannot be renewed.' } });
    await this.ctx.db.updateTable('generic_server_services').set({ date_renewed: this.ctx.now(), date_updated: this.ctx.now() }).where('id', '=', serviceId).execute();
    return this.get(serviceId);
  }

  @callable({ verb: 'PUT', params: [int('service_id'), object('vars')], vars: PLAN_VARS, returns: SERVICE, description: 'Move a service to the plan in vars[plan] (a package change). Returns it.' })
  async changePackage(serviceId: number, vars: Record<string, unknown>) {
    const service = await this.get(serviceId);
    if (!service) throw TallyError.invalid({ service_id: { exists: 'Invalid service ID.' } });
    if (service.status === 'cancelled') throw TallyError.invalid({ status: { transition: 'A cancelled service cannot change package.' } });
    if (vars.plan !== undefined && planOf(vars.plan) === null) throw TallyError.invalid({ plan: { format: 'A plan is a name of up to 64 letters, digits, - or _.' } });
    await this.ctx.db
      .updateTable('generic_server_services')
      .set({ plan: planOf(vars.plan), date_updated: this.ctx.now() })
      .where('id', '=', serviceId)
      .execute();
    return this.get(serviceId);
  }

  private async move(serviceId: number, action: keyof typeof TRANSITIONS) {
    const service = await this.get(serviceId);
    if (!service) throw TallyError.invalid({ service_id: { exists: 'Invalid service ID.' } });
    const { from, to, done } = TRANSITIONS[action];
    if (!from.includes(service.status)) throw TallyError.invalid({ status: { transition: `Only ${from.join(' or ')} services can be ${done}; this one is ${service.status}.` } });
    await this.ctx.db.updateTable('generic_server_services').set({ status: to, date_updated: this.ctx.now() }).where('id', '=', serviceId).execute();
    return this.get(serviceId);
  }

  /** The chosen server, or the active one with the most room; a full or inactive server is a 400. */
  private async pickServer(serverId: number | null) {
    const servers = (await this.ctx.call('generic_server.servers', 'getList')) as Array<{ id: number; hostname: string; status: string; max_accounts: number; accounts: number }>;
    const room = (s: (typeof servers)[number]) => (s.max_accounts === 0 ? Infinity : s.max_accounts - s.accounts);
    const candidates = servers.filter((s) => s.status === 'active' && room(s) > 0 && (serverId === null || s.id === serverId));
    if (!candidates.length) {
      throw TallyError.invalid({ server_id: { full: serverId === null ? 'No active server has room for another account.' : 'That server is inactive or full.' } });
    }
    return candidates.sort((a, b) => room(b) - room(a) || a.id - b.id)[0];
  }

  /**
   * A service added on a module row (services/add vars[module_row_id]) goes on the server with the
   * row's hostname; without a row, null (the server with the most room).
   */
  private async rowServer(row: unknown): Promise<number | null> {
    const hostname = (row as { meta?: { hostname?: unknown } } | undefined)?.meta?.hostname;
    if (typeof hostname !== 'string') return null;
    const server = await this.servers().where('hostname', '=', hostname.trim().toLowerCase()).executeTakeFirst();
    if (!server) throw TallyError.invalid({ module_row_id: { server: `No server of generic_server.servers has the module row's hostname "${hostname}".` } });
    return server.id;
  }

  private async freeUsername(serverId: number, domain: string): Promise<string> {
    const base =
      domain
        .replace(/[^a-z0-9]/g, '')
        .replace(/^[0-9]+/, '')
        .slice(0, 8) || 'user';
    for (let candidate = base; ; candidate = `${base.slice(0, 6)}${randomBytes(3).toString('hex')}`) {
      const taken = await this.ctx.db.selectFrom('generic_server_services').select('id').where('server_id', '=', serverId).where('username', '=', candidate).executeTakeFirst();
      if (!taken) return candidate;
    }
  }

  private servers() {
    return this.ctx.db.selectFrom('generic_servers').select('id').where('company_id', '=', this.ctx.companyId);
  }

  private query() {
    return this.ctx.db
      .selectFrom('generic_server_services')
      .select(['id', 'server_id', 'client_id', 'domain', 'username', 'plan', 'status', 'date_added', 'date_updated', 'date_renewed'])
      .where('company_id', '=', this.ctx.companyId);
  }
}

/** A plan name from a package's module settings, or null when there is none. */
function planOf(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : null;
}
