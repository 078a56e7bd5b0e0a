/** One service period an invoice bills: a new service's first term, or a renewal's. */
export interface Period {
  readonly serviceId: number;
  readonly start: string;
  readonly end: string | null;
  readonly kind: 'new' | 'renew';
}
