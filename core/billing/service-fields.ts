import { Tx } from '../db/schema';
import { systemEncrypt } from '../kernel/system-cipher';

/** Keys whose values are secrets, stored with systemEncrypt as the reference stores them. */
const SECRET = /pass|secret|key|token/i;

export function isSecretField(key: string): boolean {
  return SECRET.test(key);
}

/** Sets (inserts or replaces) fields of a service; secret ones are encrypted at rest. */
export async function writeFields(db: Tx, serviceId: number, fields: Record<string, unknown>, systemKey: string, encryptedKeys: ReadonlySet<string> = new Set()): Promise<void> {
  for (const [key, raw] of Object.entries(fields)) {
    if (raw === undefined || raw === null || typeof raw === 'object') continue;
    const value = String(raw);
    const encrypted = encryptedKeys.has(key) || isSecretField(key) ? 1 : 0;
    const stored = encrypted ? systemEncrypt(value, systemKey) : value;
    await db
      .insertInto('service_fields')
      .values({ service_id: serviceId, key, value: stored, encrypted })
      .onConflict((oc) => oc.columns(['service_id', 'key']).doUpdateSet({ value: stored, encrypted }))
      .execute();
  }
}

/** One field's clear value, or null. */
export async function fieldValue(db: Tx, serviceId: number, key: string): Promise<string | null> {
  const row = await db.selectFrom('service_fields').select('value').where('service_id', '=', serviceId).where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}
