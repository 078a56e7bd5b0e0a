import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { pageOffset } from '../kernel/paging';
import { int, object } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { formatUtc, parseTimestamp } from '../kernel/timestamps';
import { requireInstallation } from '../identity/tenancy';
import { trustDb } from '../identity/trust-tables';

const PAGE_SIZE = 50;
const COLUMNS = ['id', 'at', 'company_id', 'actor', 'credential_id', 'model', 'method', 'verb', 'status', 'request_id', 'address', 'params'] as const;

/**
 * The audit log: one row per write call (any method not declared GET) and per admin-area action,
 * with parameter names but never values. Readable by the installation only (an installation
 * credential, the CLI, the admin area): it names every company's credentials and staff.
 */
@model('audit')
export class Audit {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description:
      'One page (50, newest first) of audit rows, filtered by any of filters[company_id], filters[credential_id], filters[actor], filters[model], filters[method], filters[from], filters[to] (timestamps). params lists the names of the parameters given, never their values.',
    verb: 'GET',
    params: [object('filters', { default: {} }), int('page', { default: 1 })],
  })
  async getList(filters: Record<string, unknown>, page: number) {
    requireInstallation(this.ctx);
    let query = trustDb(this.ctx.db).selectFrom('audit_log').select(COLUMNS);
    for (const name of ['company_id', 'credential_id'] as const) {
      if (filters[name] === undefined || filters[name] === '') continue;
      const id = Number(filters[name]);
      if (!Number.isSafeInteger(id)) throw TallyError.invalid({ [`filters[${name}]`]: { format: 'Please give a whole number.' } });
      query = query.where(name, '=', id);
    }
    for (const name of ['actor', 'model', 'method'] as const) {
      if (typeof filters[name] === 'string' && filters[name] !== '') query = query.where(name, '=', filters[name] as string);
    }
    for (const [name, op] of [
      ['from', '>='],
      ['to', '<='],
    ] as const) {
      if (filters[name] === undefined || filters[name] === '') continue;
      const at = parseTimestamp(String(filters[name]), this.ctx.timezone);
      if (!at) throw TallyError.invalid({ [`filters[${name}]`]: { format: 'Please give a timestamp such as 2030-01-31 00:00:00 UTC.' } });
      query = query.where('at', op, formatUtc(at));
    }
    const rows = await query.orderBy('id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map((row) => ({ ...row, params: row.params ? row.params.split(',') : [] }));
  }
}
