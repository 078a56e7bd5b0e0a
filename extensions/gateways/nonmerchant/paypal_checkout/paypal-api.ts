import { ExtensionContext, TallyError, toBase64 } from '../../../../host/extensions/kit';
import { utf8 } from '../../shared/utf8';

export const GATEWAY = 'paypal_checkout';

/** PayPal's two REST API hosts (the manifest's `hosts`), chosen by the `environment` setting. */
const API = { live: 'https://api-m.paypal.com', sandbox: 'https://api-m.sandbox.paypal.com' } as const;

export interface PayPalAnswer {
  readonly status: number;
  /** PayPal's JSON object, or null when it answered something else. */
  readonly body: Record<string, any> | null;
}

/**
 * Access tokens by API host and app credentials, until a minute before they expire: PayPal asks
 * that a token be reused for its lifetime rather than one fetched per request. Keyed by the
 * credentials themselves, so a company only ever uses a token of its own app.
 */
const tokens = new Map<string, { token: Promise<string>; until: number }>();

async function apiBase(ctx: ExtensionContext): Promise<string> {
  const environment = String((await ctx.settings()).environment ?? '')
    .trim()
    .toLowerCase();
  if (environment !== 'live' && environment !== 'sandbox') throw TallyError.invalid({ environment: { format: `The gateway "${GATEWAY}" setting environment must be live or sandbox.` } });
  return API[environment];
}

/**
 * An OAuth2 access token for the REST app (client credentials grant, POST /v1/oauth2/token with
 * the client ID and secret as HTTP Basic), as https://developer.paypal.com/api/rest/authentication/
 * documents. A refusal (a wrong secret) is a 400 naming the gateway.
 */
async function accessToken(ctx: ExtensionContext, base: string): Promise<{ key: string; token: string }> {
  const settings = await ctx.settings();
  const basic = toBase64(utf8(`${settings.client_id ?? ''}:${settings.client_secret ?? ''}`));
  const key = `${base} ${basic}`;
  const kept = tokens.get(key);
  if (kept && kept.until > Date.now()) return { key, token: await kept.token };
  const entry = { until: Number.POSITIVE_INFINITY, token: Promise.resolve('') };
  entry.token = (async () => {
    const response = await ctx.http.fetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: 'grant_type=client_credentials',
    });
    const answer = { status: response.status, body: jsonObject(response.body) };
    if (answer.status !== 200 || typeof answer.body?.access_token !== 'string') throw paypalRefusal(answer);
    entry.until = Date.now() + Math.max(0, Number(answer.body.expires_in ?? 0) - 60) * 1000;
    return answer.body.access_token as string;
  })();
  tokens.set(key, entry);
  try {
    return { key, token: await entry.token };
  } catch (error) {
    if (tokens.get(key) === entry) tokens.delete(key);
    throw error;
  }
}

/**
 * A request to PayPal's REST API with the app's access token, through ctx.http, answered as PayPal
 * answered it. `body` is sent as JSON (a string is sent as it is: already JSON); `requestId` is
 * PayPal-Request-Id, PayPal's idempotency key (the same id answers the same result, done once).
 */
export async function paypalRequest(ctx: ExtensionContext, method: 'GET' | 'POST', path: string, body: unknown = null, requestId?: string): Promise<PayPalAnswer> {
  const base = await apiBase(ctx);
  const sent = method === 'POST' ? (typeof body === 'string' ? body : JSON.stringify(body ?? {})) : null;
  for (let attempt = 0; ; attempt++) {
    const { key, token } = await accessToken(ctx, base);
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'application/json', Prefer: 'return=representation' };
    if (requestId) headers['PayPal-Request-Id'] = requestId;
    if (method === 'POST') headers['Content-Type'] = 'application/json';
    const response = await ctx.http.fetch(`${base}${path}`, { method, headers, body: sent });
    // A kept token PayPal no longer takes (revoked, or the app's secret changed): forget it and ask once more with a new one.
    if (response.status === 401 && attempt === 0) {
      tokens.delete(key);
      continue;
    }
    return { status: response.status, body: jsonObject(response.body) };
  }
}

/** paypalRequest for a call that either succeeds or changes nothing: anything but a 2xx with a JSON object is a 400 naming the gateway. */
export async function paypalCall(ctx: ExtensionContext, method: 'GET' | 'POST', path: string, body: unknown = null, requestId?: string): Promise<Record<string, any>> {
  const answer = await paypalRequest(ctx, method, path, body, requestId);
  if (answer.status >= 200 && answer.status < 300 && answer.body) return answer.body;
  throw paypalRefusal(answer);
}

/** PayPal's refusal (its error `details[0].description`, `message` or OAuth's `error_description`) as the 400 naming the gateway. */
export function paypalRefusal(answer: PayPalAnswer): TallyError {
  const said = answer.body?.details?.[0]?.description ?? answer.body?.message ?? answer.body?.error_description;
  const message = typeof said === 'string' ? said.slice(0, 300) : `PayPal answered ${answer.status}.`;
  return TallyError.invalid({ gateway: { refused: `The gateway "${GATEWAY}" refused the request: ${message}` } });
}

/** The first issue PayPal names in an error (`ORDER_ALREADY_CAPTURED`), or null. */
export function issueOf(answer: PayPalAnswer): string | null {
  const issue = answer.body?.details?.[0]?.issue;
  return typeof issue === 'string' ? issue : null;
}

/** PayPal's ids (orders, captures, refunds) are letters and digits: anything else never reaches a URL path. */
export function isPayPalId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(value);
}

function jsonObject(text: string): Record<string, any> | null {
  try {
    const parsed = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
