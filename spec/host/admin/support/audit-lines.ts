import { Installation } from '../../../../core/installation';

/** The audit log as `actor model/method status` lines, to say which staff member did what through which page or model. */
export async function auditLines(installation: Installation): Promise<string[]> {
  const rows = (await installation.db
    .selectFrom('audit_log' as never)
    .select(['actor', 'model', 'method', 'status'] as never[])
    .execute()) as Array<{ actor: string; model: string; method: string; status: number }>;
  return rows.map((r) => `${r.actor} ${r.model}/${r.method} ${r.status}`);
}
