/** A host a manifest declares for `ctx.http`: a name or an IPv4 address, and a port or none. */
export interface DeclaredHost {
  readonly host: string;
  /** null: only the default port of the URL's scheme (443 for https, 80 for http). */
  readonly port: number | null;
}

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** `api.stripe.com` or `api.stripe.com:8443`: no scheme, path, user or IPv6 literal. */
export const HOST_ENTRY = new RegExp(`^(?=[^:]{1,253}(?::|$))${LABEL}(?:\\.${LABEL})*(?::(?:[1-9]\\d{0,4}))?$`);

export function parseDeclaredHost(entry: string): DeclaredHost {
  const [host, port] = entry.toLowerCase().split(':');
  return { host, port: port === undefined ? null : Number(port) };
}

/** Whether a URL's host and port are among those declared (the scheme's own port when none is). */
export function isDeclared(url: URL, declared: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  return declared.some((entry) => {
    const wanted = parseDeclaredHost(entry);
    if (wanted.host !== host) return false;
    // URL leaves port empty when it is the scheme's default (https://x:443 has port '').
    if (wanted.port === null) return url.port === '';
    return (url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port)) === wanted.port;
  });
}
