import { isIP } from 'node:net';
import { Tx } from '../db/schema';
import { systemDecrypt } from '../kernel/system-cipher';
import { SettingsStore } from '../settings-store';
import { isHeaderText, isMailAddress } from './header-safety';

export const TLS_MODES = ['none', 'starttls', 'tls'] as const;
export type TlsMode = (typeof TLS_MODES)[number];

/** A company's mail server and sender, as the mail worker uses them. */
export interface MailConfig {
  readonly host: string;
  readonly port: number;
  readonly tls: TlsMode;
  readonly user: string;
  readonly password: string;
  readonly fromName: string;
  readonly fromAddress: string;
  readonly replyTo: string;
}

/**
 * The settings (catalogue keys, all company settings, all secret: the generic settings methods
 * neither show nor set them; mail_settings/get and set do, checked together). The password is kept
 * encrypted with the system key, as other stored secrets are.
 */
export const MAIL_KEYS = {
  host: 'smtp_host',
  port: 'smtp_port',
  tls: 'smtp_tls',
  user: 'smtp_user',
  password: 'smtp_password',
  fromName: 'mail_from_name',
  fromAddress: 'mail_from_address',
  replyTo: 'mail_reply_to',
} as const;

const HOST = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** The fields of mail_settings/set as given (text), before they are stored. */
export interface MailSettingsInput {
  host: string;
  port: string;
  tls: string;
  user: string;
  password: string | null;
  from_name: string;
  from_address: string;
  reply_to: string;
}

/** Every problem of a configuration, by field (empty when it is acceptable). An empty host means: no mail server. */
export function mailSettingsProblems(input: MailSettingsInput): Record<string, string> {
  const problems: Record<string, string> = {};
  if (input.host !== '' && !HOST.test(input.host) && isIP(input.host) === 0) problems.host = 'Please give the mail server as a host name or an IP address.';
  if (!/^\d{1,5}$/.test(input.port) || Number(input.port) < 1 || Number(input.port) > 65535) problems.port = 'Please give a port from 1 to 65535.';
  if (!(TLS_MODES as readonly string[]).includes(input.tls)) problems.tls = 'Please give none, starttls or tls.';
  if (!isHeaderText(input.user) || input.user.length > 255) problems.user = 'The user name may not hold line breaks and is at most 255 characters.';
  if (input.password !== null && (input.password.length > 255 || /[\r\n]/.test(input.password))) problems.password = 'The password may not hold line breaks and is at most 255 characters.';
  if (!isHeaderText(input.from_name) || input.from_name.length > 128) problems.from_name = 'The sender name may not hold line breaks and is at most 128 characters.';
  if (input.host !== '' && input.from_address === '') problems.from_address = 'Please give the address mail is sent from.';
  else if (input.from_address !== '' && !isMailAddress(input.from_address)) problems.from_address = 'Please give a valid email address to send from.';
  if (input.reply_to !== '' && !isMailAddress(input.reply_to)) problems.reply_to = 'Please give a valid email address for replies, or leave it empty.';
  return problems;
}

/** The company's mail configuration; null when it has no mail server (its messages wait). */
export async function readMailConfig(settings: SettingsStore, companyId: number, systemKey: string, tx?: Tx): Promise<MailConfig | null> {
  const values = await settings.read(companyId, tx);
  const value = (key: string, fallback = '') => values.get(key) ?? fallback;
  const host = value(MAIL_KEYS.host);
  const fromAddress = value(MAIL_KEYS.fromAddress);
  if (host === '' || fromAddress === '') return null;
  const stored = value(MAIL_KEYS.password);
  return {
    host,
    port: Number(value(MAIL_KEYS.port, '587')),
    tls: value(MAIL_KEYS.tls, 'starttls') as TlsMode,
    user: value(MAIL_KEYS.user),
    password: stored === '' ? '' : systemDecrypt(stored, systemKey),
    fromName: value(MAIL_KEYS.fromName),
    fromAddress,
    replyTo: value(MAIL_KEYS.replyTo),
  };
}
