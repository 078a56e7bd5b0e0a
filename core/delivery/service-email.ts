import { Tx } from '../db/schema';
import { idCode } from '../billing/client-store';
import { ServiceRow } from '../billing/service-store';
import { ServiceMove } from '../billing/transitions';
import { billingRecipients, Recipient } from './client-recipients';
import { queueTemplateMessage } from './queue-template-message';

/** The lifecycle moves of a service that the client is told of, and each one's template. */
export const SERVICE_ACTIONS: Record<ServiceMove, string> = {
  creation: 'service_creation',
  suspension: 'service_suspension',
  unsuspension: 'service_unsuspension',
  cancellation: 'service_cancellation',
};

/** Service fields that name what was bought, in the order one is chosen for {service.name}. */
const LABEL_FIELDS = ['domain', 'hostname', 'username'];

/**
 * Writes the mail telling a client of a service's move (created, suspended, unsuspended,
 * cancelled) to the mail outbox, in the caller's transaction: the change and its message commit
 * together or not at all. To the client's billing contacts, else its primary contact; nothing when
 * none has an address (the move itself is not refused for it). Tags: {service.*} (id, name,
 * package_name, status, date_renews, suspension_reason), {contact.*}, {client.*}. Answers the
 * message id, or null when nothing is sent.
 */
export async function queueServiceEmail(db: Tx, service: ServiceRow, kind: ServiceMove): Promise<number | null> {
  const recipients = await billingRecipients(db, service.client_id);
  if (!recipients) return null;
  const { contact, to } = recipients;
  return queueTemplateMessage(db, {
    companyId: service.company_id,
    action: SERVICE_ACTIONS[kind],
    to,
    clientId: service.client_id,
    tags: { contact, ...(await serviceTags(db, service, contact)) },
  });
}

/**
 * The {client.*} (id_code and the contact's name and address) and {service.*} tags of a service's
 * mails, as it is now (as `service` has it, once its adding was rolled back): id, name (the package, with the domain, host or user name it was bought
 * for), package_name, status, date_renews, suspension_reason.
 */
export async function serviceTags(db: Tx, service: ServiceRow, contact: Recipient | null): Promise<{ client: Record<string, unknown>; service: Record<string, unknown> }> {
  const [client, fields, stored] = await Promise.all([
    db.selectFrom('clients').select(['id_format', 'id_value']).where('id', '=', service.client_id).executeTakeFirstOrThrow(),
    db.selectFrom('service_fields').select(['key', 'value']).where('service_id', '=', service.id).where('encrypted', '=', 0).where('key', 'in', LABEL_FIELDS).execute(),
    db.selectFrom('services').select(['status', 'date_renews', 'suspension_reason']).where('id', '=', service.id).executeTakeFirst(),
  ]);
  // A service whose adding was rolled back (its module failed to provision it) is told of as it was given.
  const current = stored ?? service;
  const label = LABEL_FIELDS.map((key) => fields.find((f) => f.key === key)?.value).find((v) => v);
  return {
    client: { id_code: idCode(client.id_format, client.id_value, service.client_id), first_name: contact?.first_name ?? '', last_name: contact?.last_name ?? '', email: contact?.email ?? '' },
    service: {
      id: service.id,
      name: label ? `${service.package_name} (${label})` : service.package_name,
      package_name: service.package_name,
      status: current.status,
      date_renews: current.date_renews?.slice(0, 10) ?? '',
      suspension_reason: current.suspension_reason ?? '',
    },
  };
}

/** queueServiceEmail as ServiceTransitions' `tell`: the moves of one call, in its transaction. */
export const mailServiceMoves =
  (db: Tx) =>
  (service: ServiceRow, move: ServiceMove): Promise<number | null> =>
    queueServiceEmail(db, service, move);
