import { callable, ExtensionContext, int, object, singleValue, TallyError } from '../../../host/extensions/kit';
import { DEPARTMENT, DEPARTMENT_EDIT, DEPARTMENT_VARS, DEPARTMENTS, id, nothing, orNull } from './fields';

const STATUSES = ['visible', 'hidden'];

/** Where tickets go: a company's support departments. */
export class Departments {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({
    verb: 'POST',
    params: [object('vars')],
    vars: DEPARTMENT_VARS,
    returns: id({ description: 'The new department id.' }),
    description: 'Create a department from vars[name], optional vars[description], vars[email], vars[status] (visible, hidden). Returns its id.',
  })
  async add(vars: Record<string, unknown>) {
    await this.ctx.assertValid(vars, this.rules(false));
    const row = await this.ctx.db
      .insertInto('support_departments')
      .values({
        company_id: this.ctx.companyId,
        name: String(vars.name).trim(),
        description: String(vars.description ?? ''),
        email: String(vars.email ?? '').trim(),
        status: String(vars.status ?? 'visible'),
        date_added: this.ctx.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  @callable({
    verb: 'PUT',
    params: [int('department_id'), object('vars')],
    vars: DEPARTMENT_EDIT,
    returns: orNull(DEPARTMENT),
    description: 'Change any of vars[name], vars[description], vars[email], vars[status]. Returns the department.',
  })
  async edit(departmentId: number, vars: Record<string, unknown>) {
    if (!(await this.get(departmentId))) throw TallyError.invalid({ department_id: { exists: 'Invalid department ID.' } });
    await this.ctx.assertValid(vars, this.rules(true));
    const changes: Record<string, string> = {};
    for (const key of ['name', 'description', 'email', 'status']) if (vars[key] !== undefined) changes[key] = String(vars[key]).trim();
    if (Object.keys(changes).length) await this.ctx.db.updateTable('support_departments').set(changes).where('id', '=', departmentId).execute();
    return this.get(departmentId);
  }

  @callable({ verb: 'GET', params: [int('department_id')], returns: orNull(DEPARTMENT), description: 'One department of the company, or null.' })
  async get(departmentId: number) {
    const row = await this.ctx.db.selectFrom('support_departments').selectAll().where('id', '=', departmentId).where('company_id', '=', this.ctx.companyId).executeTakeFirst();
    return row ?? null;
  }

  @callable({ verb: 'GET', returns: DEPARTMENTS, description: "The company's departments, by name." })
  getList() {
    return this.ctx.db.selectFrom('support_departments').selectAll().where('company_id', '=', this.ctx.companyId).orderBy('name').execute();
  }

  @callable({ verb: 'DELETE', params: [int('department_id')], returns: nothing(), description: 'Delete a department that has no tickets (a missing one is a no-op).' })
  async delete(departmentId: number) {
    if (!(await this.get(departmentId))) return null;
    const ticket = await this.ctx.db.selectFrom('support_tickets').select('id').where('department_id', '=', departmentId).executeTakeFirst();
    if (ticket) throw TallyError.invalid({ department_id: { in_use: 'The department has tickets; close and move them, or hide the department instead.' } });
    await this.ctx.db.deleteFrom('support_departments').where('id', '=', departmentId).execute();
    return null;
  }

  private rules(ifSet: boolean) {
    const { is } = this.ctx;
    return {
      name: {
        ifSet,
        rules: [
          singleValue,
          { code: 'empty', message: 'Please enter a department name.', check: is.present, final: true },
          { code: 'length', message: 'The name may be at most 128 characters long.', check: is.lengthBetween(1, 128) },
        ],
      },
      description: { ifSet: true, rules: [singleValue] },
      email: { ifSet: true, rules: [{ code: 'format', message: 'Please enter a valid email address.', check: (v: unknown) => v === '' || is.email(v) }] },
      status: { ifSet: true, rules: [{ code: 'format', message: `The status must be one of: ${STATUSES.join(', ')}.`, check: is.oneOf(STATUSES) }] },
    };
  }
}
