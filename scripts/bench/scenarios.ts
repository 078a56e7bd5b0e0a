import qs from 'qs';
import { Fixture } from './fixture';
import { invoiceVars } from './invoices-add';
import { LoadOptions } from './load';

/** A call measured through Tally, and the bare route doing the same database work. */
export interface Scenario {
  readonly name: string;
  tally(fixture: Fixture, base: string): LoadOptions;
  bare(fixture: Fixture, base: string): LoadOptions;
  /** The same read with nothing but Koa and one prepared statement (floor-server.ts), where there is one. */
  floor?(fixture: Fixture, base: string): LoadOptions;
}

export const headersOf = (fixture: Fixture) => ({ 'SERVICE-API-USER': fixture.user, 'SERVICE-API-KEY': fixture.key });

export const scenarios: Scenario[] = [
  {
    name: 'users/get.json',
    tally: (f, base) => ({ url: `${base}/api/users/get.json?user_id=${f.userId}`, headers: headersOf(f) }),
    bare: (f, base) => ({ url: `${base}/users?id=${f.userId}` }),
    floor: (f, base) => ({ url: `${base}/users?id=${f.userId}` }),
  },
  {
    name: 'invoices/add.json (10 lines)',
    tally: (f, base) => ({
      url: `${base}/api/invoices/add.json`,
      method: 'POST',
      headers: { ...headersOf(f), 'content-type': 'application/x-www-form-urlencoded' },
      body: qs.stringify({ vars: invoiceVars(f.clientId) }),
    }),
    bare: (f, base) => ({ url: `${base}/invoices?client_id=${f.clientId}`, method: 'POST' }),
  },
];
