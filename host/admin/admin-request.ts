import Koa from 'koa';
import { Installation } from '../../core/installation';
import { StaffArea } from '../../core/identity/staff-areas';
import { PluginLink } from './plugin-links';
import { StaffSession } from './staff-sessions';

export interface Company {
  readonly id: number;
  readonly name: string;
  readonly hostname: string | null;
  readonly date_added: string;
}

/** What a page handler of the area gets: a signed-in staff member, the form, the company in view. */
export interface AdminRequest {
  readonly ctx: Koa.Context;
  readonly installation: Installation;
  readonly session: StaffSession;
  /** The fields of a POST (already CSRF-checked); empty for GET. */
  readonly form: Record<string, unknown>;
  readonly companies: readonly Company[];
  /** The company the page shows and acts on: ?company= on GET, company_id in forms. */
  readonly company: Company;
  /** The areas the member's staff group may change (core/trust/staff-permissions.ts): a screen's form posts, and the forms its pages offer, need theirs (area-gate.ts). */
  readonly areas: readonly StaffArea[];
  /** The company's plugins' staff navigation links (plugin-links.ts), shown after the sections. */
  readonly pluginLinks: readonly PluginLink[];
}

export type PageHandler = (request: AdminRequest) => Promise<void>;

/**
 * The area calls models through the one call path (`installation.call`, via 'admin'), as the
 * signed-in staff member acting for the company in view: the models' rules apply exactly as over
 * the API, the member's staff group decides what they may change (core/trust/staff-permissions.ts),
 * and each write is in the audit log under `staff:<username>`.
 */
export function callAs(request: Pick<AdminRequest, 'installation' | 'company' | 'session'>, model: string, method: string, params: Record<string, unknown> = {}): Promise<unknown> {
  const caller = { companyId: request.company.id, user: `staff:${request.session.username}`, staffId: request.session.staffId };
  return request.installation.call(model, method, params, caller, { via: 'admin' });
}

/** Whether this installation has a callable model method (billing and extension models are optional). */
export function hasCallable(installation: Installation, model: string, method: string): boolean {
  return installation.isCallable(model, method);
}

/** A link inside the area that keeps the company in view. */
export function hrefFor(path: string, company: Company, extra: Record<string, string> = {}): string {
  return `${path}?${new URLSearchParams({ company: String(company.id), ...extra })}`;
}
