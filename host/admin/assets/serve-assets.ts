import Koa from 'koa';
import { createHash } from 'node:crypto';
import { SCRIPT } from './script';
import { STYLESHEET } from './stylesheet';

export interface Asset {
  readonly type: string;
  readonly body: string;
  readonly etag: string;
}

export const asset = (type: string, body: string): Asset => ({ type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` });

/** The area's assets, held in memory: reachable without a session, as the sign-in page needs them. */
const ASSETS: ReadonlyMap<string, Asset> = new Map([
  ['/admin/assets/admin.css', asset('text/css; charset=utf-8', STYLESHEET)],
  ['/admin/assets/admin.js', asset('text/javascript; charset=utf-8', SCRIPT)],
]);

export const isAssetPath = (path: string) => ASSETS.has(path);

export function serveAsset(ctx: Koa.Context): void {
  sendAsset(ctx, ASSETS.get(ctx.path)!);
}

/** Sends an asset held in memory, revalidated by its ETag (the client area's script is sent the same way). */
export function sendAsset(ctx: Koa.Context, found: Asset): void {
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('ETag', found.etag);
  if (ctx.get('if-none-match') === found.etag) {
    ctx.status = 304;
    return;
  }
  ctx.type = found.type;
  ctx.body = found.body;
}
