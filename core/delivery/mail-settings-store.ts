import { Tx } from '../db/schema';
import { systemEncrypt } from '../kernel/system-cipher';
import { TallyError } from '../kernel/tally-error';
import { SettingsStore } from '../settings-store';
import { MAIL_KEYS, MailSettingsInput, mailSettingsProblems } from './mail-config';
import { mailDb } from './mail-tables';
import { NO_MAIL_SERVER } from './mail-worker';

/** A company's mail settings as mail_settings/get answers them: the password never, only whether one is set. */
export async function showMailSettings(settings: SettingsStore, db: Tx, companyId: number) {
  const values = await settings.read(companyId, db);
  const value = (key: string, fallback = '') => values.get(key) ?? fallback;
  const host = value(MAIL_KEYS.host);
  const fromAddress = value(MAIL_KEYS.fromAddress);
  const configured = host !== '' && fromAddress !== '';
  // Without a server every pending message waits for one (the worker may not have looked at it yet);
  // with one, those the worker found waiting until they are taken again.
  let pending = mailDb(db)
    .selectFrom('mail_messages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('company_id', '=', companyId)
    .where('status', '=', 'pending');
  if (configured) pending = pending.where('response', '=', NO_MAIL_SERVER);
  const waiting = await pending.executeTakeFirstOrThrow();
  return {
    host,
    port: Number(value(MAIL_KEYS.port, '587')),
    tls: value(MAIL_KEYS.tls, 'starttls'),
    user: value(MAIL_KEYS.user),
    password_set: value(MAIL_KEYS.password) !== '',
    from_name: value(MAIL_KEYS.fromName),
    from_address: fromAddress,
    reply_to: value(MAIL_KEYS.replyTo),
    configured,
    waiting: Number(waiting.n),
  };
}

/**
 * Checks a whole configuration (what is not given keeps its value; a password not given is kept,
 * an empty one removed) and stores it, the password encrypted with the system key. Messages that
 * were waiting for a mail server become due at once.
 */
export async function saveMailSettings(settings: SettingsStore, db: Tx, companyId: number, systemKey: string, vars: Record<string, unknown>): Promise<void> {
  const current = await showMailSettings(settings, db, companyId);
  const text = (name: keyof MailSettingsInput, fallback: string): string => {
    const given = vars[name];
    if (given === undefined || given === null) return fallback;
    if (typeof given !== 'string' && typeof given !== 'number') throw TallyError.invalid({ [`vars[${name}]`]: { format: 'Please give one value.' } });
    return String(given).trim();
  };
  const input: MailSettingsInput = {
    host: text('host', current.host),
    port: text('port', String(current.port)),
    tls: text('tls', current.tls),
    user: text('user', current.user),
    password: vars.password === undefined || vars.password === null ? null : typeof vars.password === 'string' ? vars.password : String(vars.password),
    from_name: text('from_name', current.from_name),
    from_address: text('from_address', current.from_address),
    reply_to: text('reply_to', current.reply_to),
  };
  const problems = mailSettingsProblems(input);
  if (Object.keys(problems).length) throw TallyError.invalid(Object.fromEntries(Object.entries(problems).map(([field, message]) => [`vars[${field}]`, { valid: message }])));
  const store = (key: string, value: string) => settings.set(companyId, key, value, db);
  await store(MAIL_KEYS.host, input.host);
  await store(MAIL_KEYS.port, input.port);
  await store(MAIL_KEYS.tls, input.tls);
  await store(MAIL_KEYS.user, input.user);
  if (input.password !== null) await store(MAIL_KEYS.password, input.password === '' ? '' : systemEncrypt(input.password, systemKey));
  await store(MAIL_KEYS.fromName, input.from_name);
  await store(MAIL_KEYS.fromAddress, input.from_address);
  await store(MAIL_KEYS.replyTo, input.reply_to);
  if (input.host !== '' && input.from_address !== '') {
    await mailDb(db)
      .updateTable('mail_messages')
      .set({ next_attempt_at: Date.now() })
      .where('company_id', '=', companyId)
      .where('status', '=', 'pending')
      .where('response', '=', NO_MAIL_SERVER)
      .execute();
  }
}
