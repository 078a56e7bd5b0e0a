import { CredentialVerifier, generateCredential, hashKey } from '../credentials';
import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { int, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { invalidCompany } from './companies';
import { int as count, listOf, nothing, orNull } from '../kernel/shape';
import { API_KEY, API_KEY_ADD, API_KEY_CREATED } from './api-keys.fields';

/** What is shown of a credential: never the key, which exists only in the answer that creates it. */
const LISTED = ['id', 'company_id', 'user', 'notes', 'date_added', 'last_used'] as const;

/** API credentials, created per company. The key is shown once and stored only as a hash. */
@model('api_keys')
export class ApiKeys {
  constructor(
    private readonly ctx: CallContext,
    private readonly credentials: CredentialVerifier,
  ) {}

  @callable({ description: "List a company's credentials (default: the caller's company), without keys.", verb: 'GET', params: [int('company_id', { default: null })], returns: listOf(API_KEY) })
  async getList(companyId: number | null) {
    return this.ctx.db
      .selectFrom('api_keys')
      .select(LISTED)
      .where('company_id', '=', companyId ?? this.ctx.companyId)
      .orderBy('id')
      .execute();
  }

  @callable({ description: 'Fetch one credential, without its key; null when there is none.', verb: 'GET', params: [int('id')], returns: orNull(API_KEY) })
  async get(id: number) {
    return (await this.ctx.db.selectFrom('api_keys').select(LISTED).where('id', '=', id).executeTakeFirst()) ?? null;
  }

  @callable({
    description: "Create a credential for vars[company_id] (default: the caller's company) with optional vars[notes]. Returns id, company_id, user and key: the key is shown this once.",
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: API_KEY_ADD,
    returns: API_KEY_CREATED,
  })
  async add(vars: Record<string, unknown>) {
    const companyId = vars.company_id === undefined || vars.company_id === '' ? this.ctx.companyId : Number(vars.company_id);
    const exists = Number.isSafeInteger(companyId)
      ? await this.ctx.db.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst()
      : undefined;
    if (!exists) throw invalidCompany();
    const notes = vars.notes === undefined || vars.notes === '' ? null : String(vars.notes);
    if (notes !== null && notes.length > 1000) throw TallyError.invalid({ notes: { length: 'The notes may be at most 1000 characters long.' } });
    const { user, key } = generateCredential();
    const row = await this.ctx.db
      .insertInto('api_keys')
      .values({ company_id: companyId, user, key_hash: hashKey(key), notes, date_added: formatUtc(new Date()), last_used: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, company_id: companyId, user, key };
  }

  @callable({ description: 'Revoke a credential by id; it stops working on every process within a second or two.', verb: 'DELETE', params: [int('id')], returns: nothing() })
  async delete(id: number) {
    const row = await this.ctx.db.deleteFrom('api_keys').where('id', '=', id).returning('user').executeTakeFirst();
    if (!row) throw TallyError.invalid({ id: { exists: 'Invalid API key ID.' } });
    this.credentials.forget(row.user);
    return null;
  }

  @callable({ description: 'Check an API user and key; answers the id of the company they belong to.', verb: 'POST', params: [string('user', { example: '$TALLY_USER' }), string('key', { example: '$TALLY_KEY' })], returns: count({ description: 'The company id.' }) })
  async auth(user: string, key: string) {
    const caller = await this.credentials.verify(user, key, this.ctx.db);
    if (!caller) throw TallyError.invalid({ user: { valid: 'The API user or key appears to be invalid.' } });
    return caller.companyId;
  }
}
