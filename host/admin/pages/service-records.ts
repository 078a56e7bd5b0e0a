import { AdminRequest, callAs } from '../admin-request';
import { wholeNumberOr } from '../components/list-controls';
import { html, SafeHtml } from '../../web/html';
import { PackageRecord, pricingText } from './package-records';

/** A service as services/get answers it (the fields the screens show). */
export interface ServiceRecord {
  readonly id: number;
  readonly client_id: number;
  readonly pricing_id: number;
  readonly status: string;
  readonly name: string;
  readonly qty: number;
  readonly suspension_reason: string | null;
  readonly date_added: string;
  readonly date_renews: string | null;
  readonly date_canceled: string | null;
  readonly package: { readonly id: number; readonly name: string };
  readonly package_pricing: { readonly id: number; readonly term: number; readonly period: string; readonly price: string; readonly currency: string };
}

export const SERVICE_STATUS_LABELS: Record<string, string> = { pending: 'Pending', in_review: 'In review', active: 'Active', suspended: 'Suspended', canceled: 'Canceled' };

/** The service of the company in view, or null (unknown, another company's, not a number). */
export async function findService(request: AdminRequest, id: unknown): Promise<ServiceRecord | null> {
  const serviceId = wholeNumberOr(id, 0);
  if (!serviceId) return null;
  const found = await callAs(request, 'services', 'get', { service_id: serviceId });
  return found ? (found as ServiceRecord) : null;
}

/** Options of a pricing select: every pricing row of the company's packages, grouped by package, the current one marked. */
export async function pricingOptions(request: AdminRequest, selected: number | null, leaveOut: number | null = null): Promise<SafeHtml> {
  const packages = (await callAs(request, 'packages', 'getAll', {})) as PackageRecord[];
  return html`${packages
    .filter((p) => p.status !== 'inactive' && p.pricing.some((r) => r.id !== leaveOut))
    .map(
      (p) =>
        html`<optgroup label="${p.name}">${p.pricing
          .filter((r) => r.id !== leaveOut)
          .map((r) => html`<option value="${r.id}"${r.id === selected ? html` selected` : ''}>${p.name}: ${pricingText(r)}</option>`)}</optgroup>`,
    )}`;
}
