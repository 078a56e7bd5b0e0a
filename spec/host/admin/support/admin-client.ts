import { Installation } from '../../../../core/installation';
import { createStaffMember } from '../../../../host/admin/staff-accounts';
import { startTestServer, TestServer } from '../../../support/test-server';

export interface PageResponse {
  readonly status: number;
  readonly location: string | null;
  readonly text: string;
  readonly headers: Headers;
  readonly setCookies: string[];
}

export const STAFF = { username: 'morgan', password: 'correct horse 1', email: 'morgan@example.com' };

/** Creates the staff member the specs sign in as (once per installation). */
export async function addStaff(installation: Installation, username = STAFF.username, password = STAFF.password): Promise<number> {
  return createStaffMember(installation, { username, password, email: `${username}@example.com`, companyId: 1 });
}

/** A test server that trusts X-Forwarded-* as behind a reverse proxy, with the spec staff member. */
export async function startProxiedServerWithStaff(): Promise<TestServer> {
  const server = await startTestServer({ trustProxy: true });
  await addStaff(server.installation);
  return server;
}

/**
 * A browser-like client of the admin area over plain HTTP: it keeps the cookies the area sets
 * and reads the CSRF token off each page, so specs can post forms as a browser would (or not).
 */
export class AdminClient {
  readonly cookies = new Map<string, string>();
  /** The last CSRF token seen in a page. */
  token = '';

  constructor(readonly base: string) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.send('GET', path, undefined, headers);
  }

  /** Posts a form with the last token seen, unless `fields._csrf` says otherwise (null leaves it out). */
  async post(path: string, fields: Record<string, string | null> = {}, headers: Record<string, string> = {}): Promise<PageResponse> {
    const body = new URLSearchParams();
    const all = { _csrf: this.token, ...fields };
    for (const [name, value] of Object.entries(all)) if (value !== null) body.append(name, value);
    return this.send('POST', path, body.toString(), { 'content-type': 'application/x-www-form-urlencoded', ...headers });
  }

  async signIn(username = STAFF.username, password = STAFF.password): Promise<PageResponse> {
    await this.get('/admin/sign-in');
    return this.post('/admin/sign-in', { username, password, next: '/admin' });
  }

  async send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(this.base + path, { method, body, redirect: 'manual', headers: { ...(cookie ? { cookie } : {}), ...headers } });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (!value || attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text);
    if (token) this.token = token[1];
    return { status: response.status, location: response.headers.get('location'), text, headers: response.headers, setCookies };
  }
}

/** Pages that show one record: without its id they answer 404 (the access-control walk asks for them without). */
export const RECORD_GETS = [
  '/admin/clients/view',
  '/admin/clients/edit',
  '/admin/invoices/view',
  '/admin/invoices/pdf',
  '/admin/packages/edit',
  '/admin/services/add',
  '/admin/services/view',
  '/admin/services/change',
  '/admin/payments/view',
  '/admin/payments/inbox/view',
  '/admin/mail/templates/edit',
  '/admin/mail/groups/view',
  '/admin/mail/signatures/edit',
  '/admin/settings/taxes/edit',
  '/admin/settings/currencies/edit',
  '/admin/packages/servers/add',
  '/admin/packages/servers/edit',
  '/admin/packages/servers/groups/edit',
  '/admin/settings/staff/member',
];
/** Every page and form of the area behind the session, as the access-control specs walk them. */
export const STAFF_GETS = [
  '/admin',
  '/admin/',
  '/admin/clients',
  '/admin/clients/add',
  '/admin/invoices',
  '/admin/invoices/add',
  '/admin/packages',
  '/admin/packages/add',
  '/admin/packages/options',
  '/admin/payments',
  '/admin/payments/inbox',
  '/admin/packages/servers',
  '/admin/settings/taxes',
  '/admin/settings/currencies',
  ...RECORD_GETS,
  '/admin/settings/api',
  '/admin/settings/webhooks',
  '/admin/settings/mail',
  '/admin/mail/templates',
  '/admin/mail/groups',
  '/admin/mail/signatures',
  '/admin/mail/log',
  '/admin/settings/system',
  '/admin/settings/extensions',
  '/admin/settings/staff',
  '/admin/audit',
  '/admin/no-such-page',
];
export const STAFF_POSTS = [
  '/admin/sign-out',
  '/admin/settings/staff/member/notices',
  '/admin/packages/options/groups/add',
  '/admin/packages/options/groups/edit',
  '/admin/packages/options/groups/delete',
  '/admin/packages/options/add-option',
  '/admin/packages/options/order',
  '/admin/packages/options/edit-option',
  '/admin/settings/staff/member/links/add',
  '/admin/settings/staff/member/links/delete',
  '/admin/settings/api/create',
  '/admin/settings/api/revoke',
  '/admin/settings/api/limits',
  '/admin/settings/webhooks/add',
  '/admin/settings/webhooks/action',
  '/admin/settings/mail',
  '/admin/settings/mail/test',
  '/admin/mail/templates/edit',
  '/admin/mail/templates/reset',
  '/admin/mail/templates/attachments/add',
  '/admin/mail/templates/attachments/delete',
  '/admin/mail/signatures/add',
  '/admin/mail/signatures/edit',
  '/admin/mail/signatures/delete',
  '/admin/mail/log/resend',
  '/admin/settings/system/maintenance',
  '/admin/settings/system/timezone',
  '/admin/settings/system/companies',
  '/admin/settings/extensions/install',
  '/admin/settings/extensions/enable',
  '/admin/settings/extensions/disable',
  '/admin/settings/extensions/upgrade',
  '/admin/settings/extensions/uninstall',
  '/admin/settings/extensions/settings',
  '/admin/settings/extensions/task-enable',
  '/admin/settings/extensions/task-disable',
  '/admin/settings/staff/groups/add',
  '/admin/settings/staff/groups/presets',
  '/admin/settings/staff/groups/edit',
  '/admin/settings/staff/groups/delete',
  '/admin/settings/staff/assign',
  '/admin/clients/add',
  '/admin/clients/edit',
  '/admin/clients/notes/add',
  '/admin/invoices/add',
  '/admin/invoices/pay',
  '/admin/invoices/void',
  '/admin/invoices/charge',
  '/admin/invoices/delivery',
  '/admin/packages/add',
  '/admin/packages/edit',
  '/admin/packages/groups/add',
  '/admin/packages/groups/delete',
  '/admin/packages/delete',
  '/admin/services/add',
  '/admin/services/restricted',
  '/admin/services/action',
  '/admin/services/change',
  '/admin/payments/apply',
  '/admin/payments/unapply',
  '/admin/payments/refund',
  '/admin/payments/capture',
  '/admin/payments/void',
  '/admin/payments/inbox/reprocess',
  '/admin/packages/servers/add',
  '/admin/packages/servers/edit',
  '/admin/packages/servers/delete',
  '/admin/packages/servers/groups/add',
  '/admin/packages/servers/groups/edit',
  '/admin/packages/servers/groups/delete',
  '/admin/settings/taxes/add',
  '/admin/settings/taxes/edit',
  '/admin/settings/taxes/delete',
  '/admin/settings/taxes/settings',
  '/admin/settings/currencies/add',
  '/admin/settings/currencies/edit',
  '/admin/settings/currencies/delete',
  '/admin/settings/currencies/settings',
  '/admin/settings/currencies/rates',
];
