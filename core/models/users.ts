import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { assertValid, is, RuleSet } from '../kernel/input-rules';
import { model } from '../kernel/model';
import { int, object, string } from '../kernel/parameter';
import { hashPassword, verifyPassword } from '../kernel/password';
import { TallyError } from '../kernel/tally-error';
import { formatUtc } from '../kernel/timestamps';
import { isUniqueViolation } from '../db/errors';
import { bool, int as count, listOf, mapOf, nothing, orFalse, string as text } from '../kernel/shape';
import { USER, USER_ADD, USER_AUTH, USER_EDIT, USER_ID } from './users.fields';
import { sql } from 'kysely';
import { bool as flag } from '../kernel/parameter';
import { Lockouts, subject } from '../identity/lockouts';
import { TrustPolicy } from '../identity/policy';
import { RetryLater } from '../identity/retry-later';
import { trustDb } from '../identity/trust-tables';
import { reachableBy, usersFilter } from '../identity/user-reach';
import { reusedSelect } from '../kernel/reused-select';
import { Tx } from '../db/schema';
import { PAGE_SIZE, pageOffset } from '../kernel/paging';
import { emit } from '../events/emit';

/** What the API shows of a user: never the password hash or the two-factor secret. */
const OTP_MODES = mapOf(text(), { description: 'Mode → name.' });
const PUBLIC_COLUMNS = ['id', 'username', 'recovery_email', 'two_factor_mode', 'date_added'] as const;
const AUTH_TYPES = ['any', 'staff', 'client', 'contact'] as const;

/** users/get, the hot path's read, compiled once: the same query `reach` builds, for each kind of caller. */
const userById = reusedSelect((db: Tx, id: number) => trustDb(db).selectFrom('users').select(PUBLIC_COLUMNS).where('id', '=', id));
const reachableUserById = reusedSelect((db: Tx, id: number, companyId: number) => trustDb(db).selectFrom('users').select(PUBLIC_COLUMNS).where('id', '=', id).where(reachableBy(companyId)));

/** Compared against when the username is unknown, so an unknown user costs what a wrong password costs. */
const DUMMY_HASH = 'scrypt$16384$8$1$Dy8tCF5fUNpz8v/qNGCIyg==$Lh5wfN+BaUcnPfyVOXZo+HSeSfcLb4zeFkeQgGmMAQw=';

/**
 * Log-in identities. Staff, clients and contacts each link to a user. A company credential reaches
 * only its own clients' and contacts' identities and those it created (see core/identity/user-reach.ts);
 * staff identities only the installation. Another company's user is as absent as a missing one.
 */
@model('users')
export class Users {
  private readonly reach: ReturnType<typeof usersFilter>;

  constructor(
    private readonly ctx: CallContext,
    private readonly policy: TrustPolicy,
  ) {
    this.reach = usersFilter(ctx);
  }

  private get db() {
    return trustDb(this.ctx.db);
  }

  @callable({ description: 'Fetch a user by id; false when there is none.', verb: 'GET', params: [int('user_id')], returns: orFalse(USER) })
  async get(userId: number) {
    const [row] = this.ctx.installationWide ? await userById(this.ctx.db, userId) : await reachableUserById(this.ctx.db, userId, this.ctx.companyId);
    return row ?? false;
  }

  @callable({ description: 'Fetch a user by username; false when there is none.', verb: 'GET', params: [string('username')], returns: orFalse(USER) })
  async getByUsername(username: string) {
    const row = await this.reach(this.db.selectFrom('users').select(PUBLIC_COLUMNS).where('username', '=', username)).executeTakeFirst();
    return row ?? false;
  }

  @callable({ description: 'Fetch the first user (by id) whose recovery email is email; false when there is none.', verb: 'GET', params: [string('email')], returns: orFalse(USER) })
  async getByEmail(email: string) {
    return (await this.getAllByEmail(email))[0] ?? false;
  }

  @callable({ description: 'Every user whose recovery email is email, by id.', verb: 'GET', params: [string('email')], returns: listOf(USER) })
  async getAllByEmail(email: string) {
    return this.reach(this.db.selectFrom('users').select(PUBLIC_COLUMNS).where('recovery_email', '=', email))
      .orderBy('id')
      .execute();
  }

  @callable({ description: 'Fetch one page of users, ordered by username.', verb: 'GET', params: [int('page', { default: 1 })], returns: listOf(USER) })
  async getList(page: number) {
    return this.reach(this.db.selectFrom('users').select(PUBLIC_COLUMNS)).orderBy('username').limit(PAGE_SIZE).offset(pageOffset(page)).execute();
  }

  @callable({ description: 'Count all users.', verb: 'GET', returns: count() })
  async getListCount() {
    const row = await this.reach(this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('count'))).executeTakeFirstOrThrow();
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
      // The creating company reaches the user until it is linked elsewhere.
      company_id: this.ctx.companyId,
    };
    try {
      const row = await this.db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) throw TallyError.invalid({ username: { unique: USERNAME_TAKEN } });
      throw error;
    }
  }

  @callable({
    description:
      'Change a user: any of vars[username], vars[new_password] with vars[confirm_password], vars[recovery_email]. With validate_pass, vars[current_password] must be the current password. A new password ends every admin-area session of the user. Returns the user.',
    verb: 'PUT',
    params: [int('user_id'), object('vars'), flag('validate_pass', { default: false })],
    vars: USER_EDIT,
    returns: USER,
  })
  async edit(userId: number, vars: Record<string, unknown>, validatePass: boolean) {
    const current: RuleSet = validatePass ? { current_password: [this.currentPassword(userId)] } : {};
    await assertValid({ ...vars, user_id: userId }, { user_id: [this.exists()], ...current, ...this.rules(userId, true) });
    const changes: Record<string, string | null> = {};
    if (vars.username !== undefined) changes.username = String(vars.username).trim();
    if (vars.new_password !== undefined) changes.password = await hashPassword(String(vars.new_password));
    if (vars.recovery_email !== undefined) changes.recovery_email = optionalText(vars.recovery_email);
    try {
      if (Object.keys(changes).length) await this.ctx.db.updateTable('users').set(changes).where('id', '=', userId).execute();
      // Whoever knew the old password (or stole a session with it) is signed out everywhere.
      if (changes.password) await sql`delete from admin_sessions where user_id = ${userId}`.execute(this.ctx.db);
    } catch (error) {
      if (isUniqueViolation(error)) throw TallyError.invalid({ username: { unique: USERNAME_TAKEN } });
      throw error;
    }
    return this.get(userId);
  }

  @callable({ description: 'Delete a user. A user that does not exist is left as it is (no error).', verb: 'DELETE', params: [int('user_id')], returns: nothing() })
  async delete(userId: number) {
    if (!(await this.get(userId))) return null;
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
    // Attempts per username are limited in the database, so every process counts the same ones; per
    // company, as a login is reached only by its company: counted installation-wide, another company
    // sending wrong passwords for a username it learned locked the owner's application out of users/auth.
    const lockouts = new Lockouts(this.policy);
    const who = [subject.authUsername(this.ctx.companyId, username)];
    const wait = await lockouts.lockedFor(this.db, who);
    if (wait > 0) throw new RetryLater(wait);
    const user = await this.reach(this.db.selectFrom('users').select(['id', 'password']).where('username', '=', username)).executeTakeFirst();
    const matches = await verifyPassword(vars.password, user?.password ?? DUMMY_HASH);
    if (!user || !matches) {
      await lockouts.fail(this.db, [{ subject: who[0], limit: this.policy.lockoutAttempts }]);
      return false;
    }
    await lockouts.clear(this.db, who[0]);
    const accepted = await this.hasLink(user.id, type);
    if (accepted) await emit(this.ctx, 'Users.login', { user_id: user.id, username, type });
    return accepted;
  }

  @callable({
    description:
      'The two-factor sign-in modes a user can be given, value → name. Tally keeps no one-time-password secrets (two_factor_* vars are ignored), so `none` is the only one: the reference also offers motp and totp, which a consumer must not offer its users here.',
    verb: 'GET',
    returns: OTP_MODES,
  })
  getOtpModes() {
    return { none: 'None' };
  }

  @callable({
    description: 'The one-time-password mode a user must sign in with (its two_factor_mode), or false when none is required, the user does not exist or the caller does not reach it.',
    verb: 'GET',
    params: [int('user', { description: 'The user id.' })],
    returns: orFalse(text()),
  })
  async requiredOtpMode(userId: number) {
    const user = await this.get(userId);
    return user && user.two_factor_mode !== 'none' ? user.two_factor_mode : false;
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
    // any: as the reference, a user linked to no staff member, client or contact cannot log in.
    for (const kind of ['staff', 'client', 'contact']) if (await this.hasLink(userId, kind)) return true;
    return false;
  }

  private exists() {
    return {
      code: 'exists',
      message: 'Invalid user ID.',
      final: true,
      check: async (id: number) => !!(await this.get(id)),
    };
  }

  private currentPassword(userId: number) {
    return {
      code: 'matches',
      message: 'The current password is incorrect.',
      check: async (given: unknown) => {
        const row = await this.reach(this.db.selectFrom('users').select('password').where('id', '=', userId)).executeTakeFirst();
        return typeof given === 'string' && !!row && (await verifyPassword(given, row.password));
      },
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
