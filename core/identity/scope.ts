import { CredentialScope } from '../kernel/caller';

const PATTERN = /^[A-Za-z0-9_.*]+\/[A-Za-z0-9_*]+$/;

/** The patterns of a scope list (lines or commas), or a message for the first malformed one. */
export function parsePatterns(text: string): string[] {
  const patterns = text.split(/[\s,]+/).filter(Boolean);
  for (const pattern of patterns) {
    if (!PATTERN.test(pattern)) throw new Error(`"${pattern}" is not a call pattern such as invoices/* or clients/get*.`);
  }
  return patterns;
}

/** Names are case-insensitive as the API resolves them, so patterns are too. */
export function compilePattern(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.]/g, '\\.'))
    .join('.*');
  return new RegExp(`^${body}$`, 'i');
}

/** Whether a scope allows the credential to be used at all from `address` at `now` (the 401 checks). */
export function usable(scope: CredentialScope, address: string | undefined, now: number): boolean {
  if (scope.expiresAt !== null && now >= scope.expiresAt) return false;
  return !scope.addresses || scope.addresses.allows(address);
}

/**
 * Whether the scope allows `model/method` declared for `verb` (the 403 check). Runs on every call:
 * a few regular expression tests on a credential cached with its compiled scope.
 */
export function allowsCall(scope: CredentialScope, model: string, method: string, verb: string | undefined): boolean {
  if (scope.readOnly && verb !== 'GET') return false;
  if (!scope.patterns) return true;
  const call = `${model}/${method}`;
  return scope.patterns.some((pattern) => pattern.test(call));
}
