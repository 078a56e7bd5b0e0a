import Koa from 'koa';
import { sql } from 'kysely';
import { Db } from '../../core/db/schema';

/** How a company's client area looks: its logo (the one its PDF invoices print), its colour and its language. */
export interface ClientBrand {
  readonly logoSha256: string | null;
  readonly colour: string | null;
  /** The company's `language` setting (`es_es`): the pages are in it where the area is written in it. */
  readonly language: string | null;
}

/** Which company the Host a request names is: none mapped (any company's clients), one, or one name set by several. */
export type HostCompany = { readonly kind: 'any' } | { readonly kind: 'one'; readonly companyId: number } | { readonly kind: 'ambiguous' };

const BRAND_PATH = /^\/client\/brand\/(\d{1,15})\/(logo|style\.css)$/;

export const isBrandAsset = (path: string) => BRAND_PATH.test(path);

/**
 * The company whose hostname (companies/edit vars[hostname]) is the Host of the request, compared
 * without case. Two companies given the same hostname make it serve neither: the Host header never
 * chooses between companies, so one company's clients are never shown under another's name.
 */
export async function companyForHost(db: Db, hostname: string): Promise<HostCompany> {
  const host = hostname.toLowerCase();
  if (!host) return { kind: 'any' };
  const rows = await db
    .selectFrom('companies')
    .select('id')
    .where(sql<string>`lower(hostname)`, '=', host)
    .limit(2)
    .execute();
  if (rows.length === 0) return { kind: 'any' };
  return rows.length === 1 ? { kind: 'one', companyId: rows[0].id } : { kind: 'ambiguous' };
}

/** Whether a session or pay link of `companyId` may be served under the request's host. */
export const hostServes = (host: HostCompany, companyId: number) => host.kind === 'any' || (host.kind === 'one' && host.companyId === companyId);

export async function readBrand(db: Db, companyId: number): Promise<ClientBrand> {
  const logo = await db.selectFrom('invoice_pdf_files').select('sha256').where('company_id', '=', companyId).where('kind', '=', 'logo').executeTakeFirst();
  const settings = await db.selectFrom('settings').select(['key', 'value']).where('company_id', '=', companyId).where('key', 'in', ['client_area_colour', 'language']).execute();
  const setting = (key: string) => settings.find((s) => s.key === key)?.value || null;
  return { logoSha256: logo?.sha256 ?? null, colour: setting('client_area_colour'), language: setting('language') };
}

/**
 * GET /client/brand/<company>/logo and /client/brand/<company>/style.css, without a session (the
 * sign-in page shows them): the logo a company's PDF invoices print, and its colour as the
 * stylesheet's accent. Both are what its invoices show anyone they are sent to; nothing else of a
 * company is served here.
 */
export async function serveBrandAsset(ctx: Koa.Context, db: Db): Promise<boolean> {
  const match = BRAND_PATH.exec(ctx.path);
  if (!match || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
  const companyId = Number(match[1]);
  if (match[2] === 'style.css') {
    const { colour } = await readBrand(db, companyId);
    ctx.type = 'text/css; charset=utf-8';
    // The colour setting is checked as #rrggbb when it is set, so it cannot carry other CSS.
    ctx.body = colour ? `:root { --accent: ${colour}; }\n.site-header { background: ${colour}; }\n` : '';
    return true;
  }
  const row = await db.selectFrom('invoice_pdf_files').select('content').where('company_id', '=', companyId).where('kind', '=', 'logo').executeTakeFirst();
  if (!row) return false;
  const bytes = Buffer.from(row.content, 'base64');
  ctx.type = bytes[0] === 0x89 ? 'image/png' : 'image/jpeg';
  ctx.body = bytes;
  return true;
}
