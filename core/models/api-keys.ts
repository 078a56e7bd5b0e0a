import { CredentialVerifier, generateCredential, hashKey } from '../identity/credentials';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { int as count, listOf, nothing, orFalse } from '../kernel/shape';
import { API_KEY, API_KEY_ADD, API_KEY_CREATED, API_KEY_EDIT } from './api-keys.fields';
import { flag, scopeColumns } from '../identity/credential-fields';
import { companyOf, invalidCompanyError } from '../identity/tenancy';
import { trustDb } from '../identity/trust-tables';
import { emitAll } from '../events/emit';

/** What is shown of a credential: never the key, which exists only in the answer that creates it. */
const LISTED = ['id', 'company_id', 'user', 'notes', 'date_added', 'last_used', 'last_used_ip', 'installation', 'scopes', 'read_only', 'allow_ips', 'expires_at'] as const;

type Row = { [K in (typeof LISTED)[number]]: unknown };

/** Flags as booleans and lists as lists, whatever the database stores them as. */
function shown(row: Row) {
  const list = (text: unknown) => (typeof text === 'string' && text ? text.split('\n') : []);
  return { ...row, installation: !!Number(row.installation), read_only: !!Number(row.read_only), scopes: list(row.scopes), allow_ips: list(row.allow_ips) };
}

const NO_SUCH_KEY = () => TallyError.invalid({ id: { exists: 'Invalid API key ID.' } });

/**
 * API credentials, created per company. The key is shown once and stored only as a hash. A company
 * credential sees and manages its own company's credentials only; installation credentials are
 * made only from the machine or the admin area, never over the API; a narrowed credential (scope,
 * read-only, IP allow list, expiry) may not mint, change or revoke credentials (it would widen itself).
 */
@model('api_keys')
export class ApiKeys {
  constructor(
    private readonly ctx: CallContext,
    private readonly credentials: CredentialVerifier,
  ) {}

  private get db() {
    return trustDb(this.ctx.db);
  }

  @callable({ description: "List a company's credentials (default: the caller's company), without keys.", verb: 'GET', params: [int('company_id', { default: null })], returns: listOf(API_KEY) })
  async getList(companyId: number | null) {
    const query = this.db.selectFrom('api_keys').select(LISTED).where('company_id', '=', companyOf(this.ctx, companyId));
    const rows = await (this.ctx.installationWide ? query : query.where('installation', '=', 0)).orderBy('id').execute();
    return rows.map(shown);
  }

  @callable({
    description: "Fetch one credential of the caller's company (any, for an installation credential), without its key; false when there is none (as the reference answers a missing record).",
    verb: 'GET',
    params: [int('id')],
    returns: orFalse(API_KEY),
  })
  async get(id: number) {
    const row = await this.mine(this.db.selectFrom('api_keys').select(LISTED).where('id', '=', id)).executeTakeFirst();
    return row ? shown(row) : false;
  }

  @callable({
    description:
      "Create a credential for vars[company_id] (default: the caller's company) with optional vars[notes], vars[scopes] (allowed calls such as invoices/* or clients/get*), vars[read_only], vars[allow_ips] (CIDR blocks), vars[expires_at]. Returns id, company_id, user and key: the key is shown this once.",
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: API_KEY_ADD,
    returns: API_KEY_CREATED,
  })
  async add(vars: Record<string, unknown>) {
    if (this.ctx.scoped) throw new TallyError('forbidden');
    const companyId = companyOf(this.ctx, vars.company_id);
    if (!(await this.db.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst())) throw invalidCompanyError();
    const installation = vars.installation !== undefined && this.installationFlag(vars.installation);
    // Installation credentials come from the machine or the admin area only, never from another credential.
    if (installation && this.ctx.grant) throw new TallyError('forbidden');
    const narrowing = scopeColumns(vars, this.ctx.timezone);
    const { user, key } = generateCredential();
    const row = await this.db
      .insertInto('api_keys')
      .values({
        company_id: companyId,
        user,
        key_hash: hashKey(key),
        notes: narrowing.notes ?? null,
        date_added: formatUtc(new Date()),
        last_used: null,
        last_used_ip: null,
        installation: installation ? 1 : 0,
        scopes: narrowing.scopes ?? null,
        read_only: narrowing.read_only ?? 0,
        allow_ips: narrowing.allow_ips ?? null,
        expires_at: narrowing.expires_at ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await emitAll(this.ctx.db, [{ companyId, type: 'Credentials.created', payload: shown(await this.db.selectFrom('api_keys').select(LISTED).where('id', '=', row.id).executeTakeFirstOrThrow()) }]);
    return { id: row.id, company_id: companyId, user, key, installation };
  }

  @callable({
    description: 'Change the notes or narrowing of a credential (vars[notes], vars[scopes], vars[read_only], vars[allow_ips], vars[expires_at]; an empty value removes it). Returns the credential.',
    verb: 'PUT',
    params: [int('id'), object('vars')],
    vars: API_KEY_EDIT,
    returns: API_KEY,
  })
  async edit(id: number, vars: Record<string, unknown>) {
    if (this.ctx.scoped) throw new TallyError('forbidden');
    const row = await this.mine(this.db.selectFrom('api_keys').select(['user', 'installation']).where('id', '=', id)).executeTakeFirst();
    if (!row) throw NO_SUCH_KEY();
    if (Number(row.installation) && this.ctx.grant) throw new TallyError('forbidden');
    const changes = scopeColumns(vars, this.ctx.timezone);
    if (Object.keys(changes).length) await this.db.updateTable('api_keys').set(changes).where('id', '=', id).execute();
    this.credentials.forget(row.user);
    return this.get(id);
  }

  @callable({ description: 'Revoke a credential by id; it stops working on every process within a second or two.', verb: 'DELETE', params: [int('id')], returns: nothing() })
  async delete(id: number) {
    if (this.ctx.scoped) throw new TallyError('forbidden');
    const row = await this.mine(this.db.selectFrom('api_keys').select(['user', 'installation']).where('id', '=', id)).executeTakeFirst();
    if (!row) throw NO_SUCH_KEY();
    const revoked = shown(await this.db.selectFrom('api_keys').select(LISTED).where('id', '=', id).executeTakeFirstOrThrow());
    await emitAll(this.ctx.db, [{ companyId: Number(revoked.company_id), type: 'Credentials.revoked', payload: revoked }]);
    await this.db.deleteFrom('api_keys').where('id', '=', id).execute();
    this.credentials.forget(row.user);
    return null;
  }

  @callable({
    description: 'Check an API user and key; answers the id of the company they belong to.',
    verb: 'POST',
    params: [string('user', { example: '$TALLY_USER' }), string('key', { example: '$TALLY_KEY' })],
    returns: count({ description: 'The company id.' }),
  })
  async auth(user: string, key: string) {
    const caller = await this.credentials.verify(user, key, this.ctx.db);
    if (!caller) throw TallyError.invalid({ user: { valid: 'The API user or key appears to be invalid.' } });
    return caller.companyId;
  }

  /** Another company's credentials, and installation credentials, are as absent as missing ones to a company credential. */
  private mine<Q extends { where: (...args: any[]) => Q }>(query: Q): Q {
    return this.ctx.installationWide ? query : query.where('company_id', '=', this.ctx.companyId).where('installation', '=', 0);
  }

  private installationFlag(value: unknown): boolean {
    try {
      return flag(value);
    } catch (error) {
      throw TallyError.invalid({ installation: { valid: (error as Error).message } });
    }
  }
}
