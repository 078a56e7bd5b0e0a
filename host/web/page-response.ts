import Koa from 'koa';
import { html, SafeHtml } from './html';

/** A message shown at the top of a page; `role` makes screen readers announce it. */
export function notice(kind: 'ok' | 'error' | 'warn', text: SafeHtml | string): SafeHtml {
  return html`<div class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</div>`;
}

export function sendHtml(ctx: Koa.Context, status: number, page: SafeHtml): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page.text;
}

/** After a successful POST: 303 so a reload does not post again. */
export function redirectTo(ctx: Koa.Context, location: string): void {
  ctx.status = 303;
  ctx.redirect(location);
}
