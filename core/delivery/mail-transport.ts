import nodemailer, { Transporter } from 'nodemailer';
import { MailConfig } from './mail-config';

/** What a mail server answered; `code` is its reply code when there is one. */
export interface ServerAnswer {
  readonly accepted: boolean;
  readonly answer: string;
  readonly code: number | null;
}

export interface OutgoingMail {
  readonly messageId: string;
  readonly to: readonly string[];
  readonly cc?: readonly string[];
  readonly bcc?: readonly string[];
  /** The message's own sender (an email's from, sendCustom's), else the company's. */
  readonly fromName?: string | null;
  readonly fromAddress?: string | null;
  readonly subject: string;
  readonly html: string | null;
  readonly text: string | null;
  readonly attachments: ReadonlyArray<{ filename: string; contentType: string; content: Buffer }>;
}

/** How long a mail server may take: to connect, to greet, between bytes. */
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;
/** SMTP connections open at once to one company's server. */
const MAX_CONNECTIONS = 4;

function transportOptions(config: MailConfig) {
  return {
    host: config.host,
    port: config.port,
    // tls: TLS from the first byte (usually 465); starttls: plain, then STARTTLS, required; none: plain throughout.
    secure: config.tls === 'tls',
    requireTLS: config.tls === 'starttls',
    ignoreTLS: config.tls === 'none',
    auth: config.user === '' ? undefined : { user: config.user, pass: config.password },
    // Connections kept open and reused: a new SMTP session per message (connect, greet, EHLO) costs
    // more than the message (scripts/bench/mail-delivery.ts). A few per company, as servers limit them.
    pool: true,
    maxConnections: MAX_CONNECTIONS,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: CONNECTION_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    // nodemailer logs nothing and builds no transport-level cache of its own beyond this connection.
    logger: false,
  };
}

/**
 * Sends mail through nodemailer with a company's own server: one transport per configuration,
 * made again when the configuration changes, so one company's messages never leave through
 * another's server.
 */
export class MailTransport {
  private readonly transports = new Map<number, { key: string; transport: Transporter }>();

  async send(companyId: number, config: MailConfig, mail: OutgoingMail): Promise<ServerAnswer> {
    const transport = this.transportFor(companyId, config);
    try {
      const info = await transport.sendMail({
        messageId: mail.messageId,
        from: { name: mail.fromName || config.fromName, address: mail.fromAddress || config.fromAddress },
        replyTo: config.replyTo || undefined,
        to: [...mail.to],
        cc: mail.cc?.length ? [...mail.cc] : undefined,
        bcc: mail.bcc?.length ? [...mail.bcc] : undefined,
        subject: mail.subject,
        text: mail.text ?? undefined,
        html: mail.html ?? undefined,
        attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
        // Headers come only from checked values (core/delivery/header-safety.ts); nodemailer folds and encodes them.
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      return { accepted: true, answer: String(info.response ?? ''), code: null };
    } catch (error) {
      const failure = error as { response?: string; responseCode?: number; message?: string };
      return { accepted: false, answer: String(failure.response ?? failure.message ?? error), code: typeof failure.responseCode === 'number' ? failure.responseCode : null };
    }
  }

  close(): void {
    for (const { transport } of this.transports.values()) transport.close();
    this.transports.clear();
  }

  private transportFor(companyId: number, config: MailConfig): Transporter {
    const key = JSON.stringify(config);
    const known = this.transports.get(companyId);
    if (known?.key === key) return known.transport;
    known?.transport.close();
    const transport = nodemailer.createTransport(transportOptions(config));
    this.transports.set(companyId, { key, transport });
    return transport;
  }
}
