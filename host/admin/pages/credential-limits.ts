import { AdminRequest, callAs, hrefFor, PageHandler } from '../admin-request';
import { field } from '../../web/form-body';
import { attempt, problemsNotice } from '../../web/form-outcome';
import { html, SafeHtml } from '../../web/html';
import { formBasics, redirectTo } from '../layout';
import { mayChange } from '../area-gate';

/** What the limits form shows of a credential. */
export interface Limited {
  readonly id: number;
  readonly user: string;
  readonly scopes: string[];
  readonly read_only: boolean;
  readonly allow_ips: string[];
  readonly expires_at: string | null;
}

const PATH = '/admin/settings/api';

/** A credential's narrowing in words: what it may call, from where, until when. */
export function limitsText(c: Limited): string {
  const parts = [
    c.scopes.length ? `calls: ${c.scopes.join(', ')}` : '',
    c.read_only ? 'read-only' : '',
    c.allow_ips.length ? `from: ${c.allow_ips.join(', ')}` : '',
    c.expires_at ? `expires ${c.expires_at}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'none';
}

/** The limits in words, and a folded form that changes them (an empty field removes that limit). */
export function limitsCell(request: AdminRequest, c: Limited): SafeHtml {
  const id = (name: string) => `${name}-${c.id}`;
  if (!mayChange(request, 'settings')) return html`${limitsText(c)}`;
  return html`${limitsText(c)}
<details><summary>Change limits<span class="visually-hidden"> of ${c.user}</span></summary>
  <form method="post" action="${PATH}/limits">${formBasics(request)}<input type="hidden" name="id" value="${c.id}">
    <div class="field"><label for="${id('scopes')}">Allowed calls</label><input type="text" id="${id('scopes')}" name="scopes" value="${c.scopes.join(' ')}"></div>
    <div class="field"><label for="${id('allow_ips')}">Allowed addresses</label><input type="text" id="${id('allow_ips')}" name="allow_ips" value="${c.allow_ips.join(' ')}"></div>
    <div class="field"><label for="${id('expires_at')}">Expires (UTC)</label><input type="text" id="${id('expires_at')}" name="expires_at" value="${c.expires_at ?? ''}"></div>
    <div class="field"><label><input type="checkbox" name="read_only" value="1"${c.read_only ? html` checked` : ''}> Read-only</label></div>
    <div><button type="submit" class="small">Save limits</button></div>
  </form>
</details>`;
}

/** POST /admin/settings/api/limits: api_keys/edit for a credential of the company in view. */
export function changeLimits(render: (request: AdminRequest, status: number, top: SafeHtml) => Promise<void>): PageHandler {
  return async (request) => {
    const id = field(request.form, 'id');
    const vars = {
      scopes: field(request.form, 'scopes'),
      allow_ips: field(request.form, 'allow_ips'),
      // The form shows the stored UTC time without its zone; read it back as UTC, not the company's zone.
      expires_at:
        field(request.form, 'expires_at') && !/(UTC|Z|[+-]\d\d:\d\d)$/.test(field(request.form, 'expires_at')) ? `${field(request.form, 'expires_at')} UTC` : field(request.form, 'expires_at'),
      read_only: field(request.form, 'read_only') ? 'true' : 'false',
    };
    const mine = (await callAs(request, 'api_keys', 'getList', { company_id: request.company.id })) as Limited[];
    if (!mine.some((c) => String(c.id) === id)) return render(request, 400, problemsNotice([`${request.company.name} has no such credential; it may have been revoked.`]));
    const outcome = await attempt(() => callAs(request, 'api_keys', 'edit', { id: Number(id), vars }));
    if (!outcome.ok) return render(request, 400, problemsNotice(outcome.messages));
    redirectTo(request.ctx, hrefFor(PATH, request.company, { done: 'limits' }));
  };
}
