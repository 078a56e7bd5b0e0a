import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is, RuleSet } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { int, object, string } from '../kernel/parameter';
import { hashPassword, verifyPassword } from '../kernel/password';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { isUniqueViolation } from '../db/errors';
import { bool, int as count, listOf, nothing, orNull } from '../kernel/shape';
import { USER, USER_ADD, USER_AUTH, USER_EDIT, USER_ID } from './users.fields';

/** What the API shows of a user: never the password hash or the two-factor secret. */
const PUBLIC_COLUMNS = ['id', 'username', 'recovery_email', 'two_factor_mode', 'date_added'] as const;
const PAGE_SIZE = 25;
const AUTH_TYPES = ['any', 'staff', 'client', 'contact'] as const;

/** Log-in identities. Staff, clients and contacts each link to a user. */
@model('users')
export class Users {
  constructor(private readonly ctx: CallContext) {}

  @callable({ description: 'Fetch a user by id; null when there is none.', verb: 'GET', params: [int('user_id')], returns: orNull(USER) })
  async get(userId: number) {
    const row = await this.ctx.db.selectFrom('users').select(PUBLIC_COLUMNS).where('id', '=', userId).executeTakeFirst();
    return row ?? null;
  }

  @callable({ description: 'Fetch one page of users, ordered by username.', verb: 'GET', params: [int('page', { default: 1 })], returns: listOf(USER) })
  async getList(page: number) {
    return this.ctx.db
      .selectFrom('users')
      .select(PUBLIC_COLUMNS)
      .orderBy('username')
      .limit(PAGE_SIZE)
      .offset(Math.max(0, page - 1) * PAGE_SIZE)
      .execute();
  }

  @callable({ description: 'Count all users.', verb: 'GET', returns: count() })
  async getListCount() {
    const row = await this.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  @callable({
    description: 'Create a user from vars[username], vars[new_password], vars[confirm_password] and optional vars[recovery_email]. Returns the new user id.',
    verb: 'POST',
    params: [object('vars')],
    vars: USER_ADD,
    returns: USER_ID,
  })
  async add(vars: Record<string, unknown>) {
    await assertValid(vars, this.rules());
    const values = {
      username: String(vars.username).trim(),
      password: await hashPassword(String(vars.new_password)),
      recovery_email: optionalText(vars.recovery_email),
      two_factor_mode: 'none',
      two_factor_key: null,
      date_added: formatUtc(new Date()),
    };
    try {
      const row = await this.ctx.db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) throw TallyError.invalid({ username: { unique: USERNAME_TAKEN } });
      throw error;
    }
  }

  @callable({
    description: 'Change a user: any of vars[username], vars[new_password] with vars[confirm_password], vars[recovery_email]. Returns the user.',
    verb: 'PUT',
    params: [int('user_id'), object('vars')],
    vars: USER_EDIT,
    returns: USER,
  })
  async edit(userId: number, vars: Record<string, unknown>) {
    await assertValid({ ...vars, user_id: userId }, { user_id: [this.exists()], ...this.rules(userId, true) });
    const changes: Record<string, string | null> = {};
    if (vars.username !== undefined) changes.username = String(vars.username).trim();
    if (vars.new_password !== undefined) changes.password = await hashPassword(String(vars.new_password));
    if (vars.recovery_email !== undefined) changes.recovery_email = optionalText(vars.recovery_email);
    try {
      if (Object.keys(changes).length) await this.ctx.db.updateTable('users').set(changes).where('id', '=', userId).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw TallyError.invalid({ username: { unique: USERNAME_TAKEN } });
      throw error;
    }
    return this.get(userId);
  }

  @callable({ description: 'Delete a user. A user that does not exist is left as it is (no error).', verb: 'DELETE', params: [int('user_id')], returns: nothing() })
  async delete(userId: number) {
    const client = await this.ctx.db.selectFrom('clients').select('id').where('user_id', '=', userId).executeTakeFirst();
    if (client) {
      throw TallyError.invalid({
        clients: { exist: 'The user cannot be deleted because there is at least one client assigned to the user.' },
      });
    }
    await this.ctx.db.updateTable('contacts').set({ user_id: null }).where('user_id', '=', userId).execute();
    await this.ctx.db.deleteFrom('staff').where('user_id', '=', userId).execute();
    await this.ctx.db.deleteFrom('users').where('id', '=', userId).execute();
    return null;
  }

  @callable({
    description:
      'Tell whether vars[username] and vars[password] may log in. type: any (any user), staff, client or contact (the user must have an active link of that kind). Answers true or false; never records errors.',
    verb: 'POST',
    params: [string('username', { example: 'ada' }), object('vars'), string('type', { default: 'any' })],
    vars: USER_AUTH,
    returns: bool(),
  })
  async auth(username: string, vars: Record<string, unknown>, type: string) {
    const given = typeof vars.username === 'string' ? vars.username : username;
    if (given !== username || typeof vars.password !== 'string' || !AUTH_TYPES.includes(type as never)) return false;
    const user = await this.ctx.db.selectFrom('users').select(['id', 'password']).where('username', '=', username).executeTakeFirst();
    if (!user || !(await verifyPassword(vars.password, user.password))) return false;
    return this.hasLink(user.id, type);
  }

  private async hasLink(userId: number, type: string): Promise<boolean> {
    const db = this.ctx.db;
    if (type === 'staff') {
      return !!(await db.selectFrom('staff').select('id').where('user_id', '=', userId).where('status', '=', 'active').executeTakeFirst());
    }
    if (type === 'client') {
      return !!(await db.selectFrom('clients').select('id').where('user_id', '=', userId).where('status', '=', 'active').executeTakeFirst());
    }
    if (type === 'contact') {
      return !!(await db
        .selectFrom('contacts')
        .innerJoin('clients', 'clients.id', 'contacts.client_id')
        .select('contacts.id')
        .where('contacts.user_id', '=', userId)
        .where('clients.status', '=', 'active')
        .executeTakeFirst());
    }
    return true;
  }

  private exists() {
    return {
      code: 'exists',
      message: 'Invalid user ID.',
      final: true,
      check: async (id: number) => !!(await this.ctx.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()),
    };
  }

  private rules(exceptUserId?: number, ifSet = false): RuleSet {
    return {
      username: {
        ifSet,
        rules: [
          { code: 'empty', message: 'Please enter a username.', check: is.present, final: true },
          // vars[username][]=x would otherwise be stored as the text of a list or "[object Object]".
          { code: 'format', message: 'Please enter the username as text.', check: is.string, final: true },
          { code: 'length', message: 'The username may be at most 255 characters long.', check: (v) => String(v).length <= 255, final: true },
          { code: 'unique', message: USERNAME_TAKEN, check: (v) => this.usernameFree(String(v).trim(), exceptUserId) },
        ],
      },
      new_password: {
        ifSet,
        rules: [
          { code: 'format', message: 'Please enter a password at least 6 characters in length.', check: (v) => typeof v === 'string' && v.length >= 6 },
          { code: 'matches', message: 'The passwords do not match.', check: (v, all) => v === all.confirm_password },
        ],
      },
      recovery_email: { ifSet: true, rules: [{ code: 'format', message: 'Please enter a valid recovery email address.', check: (v) => v === '' || is.email(v) }] },
    };
  }

  private async usernameFree(username: string, exceptUserId?: number): Promise<boolean> {
    let query = this.ctx.db.selectFrom('users').select('id').where('username', '=', username);
    if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
    return !(await query.executeTakeFirst());
  }
}

const USERNAME_TAKEN = 'That username has already been taken.';

function optionalText(value: unknown): string | null {
  return value === undefined || value === null || value === '' ? null : String(value).trim();
}
