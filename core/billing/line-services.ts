import { Tx } from '../db/schema';
import { Rule } from '../kernel/input-rules';
import { wholeNumber } from './values';

export const LINE_SERVICE_MESSAGE = 'Invalid service ID.';

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * A line's `service_id`: blank, or a service of the invoice's client. Another client's or company's
 * service is refused, so a line can never point a client's invoice at a stranger's service (the
 * invoices of a service are found through it).
 */
export function lineServiceId(value: unknown): number | null {
  return blank(value) ? null : wholeNumber(value);
}

/**
 * The ids among `candidates` that are services of the client (of the company; null: of any of its
 * clients); blank ones are left out.
 */
export async function ownedServiceIds(db: Tx, companyId: number, clientId: number | null, candidates: readonly unknown[]): Promise<Set<number>> {
  const ids = [
    ...new Set(
      candidates
        .filter((v) => !blank(v))
        .map(wholeNumber)
        .filter((id): id is number => id !== null),
    ),
  ];
  if (!ids.length) return new Set();
  let query = db.selectFrom('services').select('id').where('company_id', '=', companyId).where('id', 'in', ids);
  if (clientId !== null) query = query.where('client_id', '=', clientId);
  const rows = await query.execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * invoices/add's rule for lines[i][service_id]: the client is the one client_id's rule found (it is
 * declared, and so checked, first); with no client found, a service of the company is enough here
 * (client_id's own error says the rest).
 */
export function lineServiceRule(db: Tx, companyId: number, client: () => { id: number } | undefined): Rule {
  return {
    code: 'exists',
    message: LINE_SERVICE_MESSAGE,
    check: async (v) => {
      if (blank(v)) return true;
      const id = wholeNumber(v);
      if (id === null) return false;
      return (await ownedServiceIds(db, companyId, client()?.id ?? null, [id])).has(id);
    },
  };
}
