import { Installation } from '../../core/installation';
import { Company } from './admin-request';

/**
 * The company a page shows: `?company=` on a GET, the form's company_id on a POST, else the staff
 * member's own. Answers null when one was named that does not exist.
 */
export async function companyInView(installation: Installation, named: unknown, ownCompanyId: number): Promise<{ company: Company; companies: Company[] } | null> {
  const companies = (await installation.call('companies', 'getAll', {}, { companyId: ownCompanyId, user: 'admin' }, { via: 'admin' })) as Company[];
  if (named !== undefined && named !== '') {
    const company = companies.find((c) => String(c.id) === String(named));
    return company ? { company, companies } : null;
  }
  const company = companies.find((c) => c.id === ownCompanyId) ?? companies[0];
  return { company, companies };
}
