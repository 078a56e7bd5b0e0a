import Koa from 'koa';
import { Installation } from '../../core/installation';
import { Caller, ClientReach } from '../../core/kernel/caller';
import { ClientArea } from '../../core/identity/client-areas';
import { ClientSession } from './client-sessions';
import { ClientBrand } from './client-brand';

/** The company whose client area this is: its name (and logo, when it has one) heads every page, in its colour. */
export interface ClientCompany {
  readonly id: number;
  readonly name: string;
  readonly brand?: ClientBrand;
}

/** What a page of the client area gets: the signed-in client or contact, its form, its company. */
export interface ClientRequest {
  readonly ctx: Koa.Context;
  readonly installation: Installation;
  readonly session: ClientSession;
  /** The fields of a POST (already CSRF-checked); empty for GET. */
  readonly form: Record<string, unknown>;
  readonly company: ClientCompany;
}

export type ClientPageHandler = (request: ClientRequest) => Promise<void>;

/** The caller a client area call is made as: the client scope of the call path (core/trust/client-scope.ts) reads `client`. */
export function clientCaller(companyId: number, reach: ClientReach): Caller {
  const user = reach.invoiceId !== undefined ? `pay-link:${reach.clientId}` : reach.contactId === null ? `client:${reach.clientId}` : `contact:${reach.contactId}`;
  return { companyId, user, client: reach };
}

/**
 * Every model call of the client area goes through the one call path as the signed-in client (or
 * contact): what it may reach is the client scope's decision, never a page's filter.
 */
export function callAsClient(
  installation: Installation,
  companyId: number,
  reach: ClientReach,
  model: string,
  method: string,
  params: Record<string, unknown> = {},
  address?: string,
): Promise<unknown> {
  return installation.call(model, method, params, clientCaller(companyId, reach), { via: 'client', address });
}

export function call(request: ClientRequest, model: string, method: string, params: Record<string, unknown> = {}): Promise<unknown> {
  return callAsClient(request.installation, request.session.companyId, request.session.reach, model, method, params, request.ctx.ip);
}

/** Whether the session may use an area (a client signed in as itself may use every one). Navigation only: the call path decides. */
export function mayUse(session: ClientSession, area: ClientArea): boolean {
  return session.reach.areas === null || session.reach.areas.includes(area);
}
