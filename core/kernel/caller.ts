import { AddressList } from './address-list';

/** What an API credential grants, beyond acting as its company. */
export interface Grant {
  readonly credentialId: number;
  /** An installation credential: other companies, companies/add, system settings, staff identities. */
  readonly installation: boolean;
  readonly scope: CredentialScope;
}

/**
 * Who makes a call. `{ companyId, user }` alone is an in-process caller (the CLI, the admin area, a
 * scheduled task, a spec): the installation itself, acting for that company. A caller authenticated
 * by an API credential carries its `grant`: a company credential acts only as its company.
 */
export interface Caller {
  readonly companyId: number;
  readonly user: string;
  readonly grant?: Grant;
  /** A client area caller: only what the client scope (core/trust/client-scope.ts) lets through, for this client alone. */
  readonly client?: ClientReach;
  /**
   * The staff member an in-process call is made for (the administrative area's signed-in staff):
   * the call path holds their writes to their staff group's permissions (core/trust/staff-permissions.ts).
   */
  readonly staffId?: number;
}

/**
 * Whom a client area call acts for: a client signed in as itself (contactId null, every area), one
 * of its contacts signed in with the areas its permissions grant, or a pay link, which reaches one
 * invoice of the client and nothing else.
 */
export interface ClientReach {
  readonly clientId: number;
  readonly contactId: number | null;
  /** The areas the caller may use (core/identity/client-areas.ts); null: all of them (the client itself). */
  readonly areas: readonly string[] | null;
  /** A pay link's invoice: the only invoice, and the only thing, the caller reaches. */
  readonly invoiceId?: number;
}

/** Whether the caller holds installation-wide powers (an installation credential, or in-process). */
export const actsForInstallation = (caller: Caller): boolean => !caller.grant || caller.grant.installation;

/** What one credential may do beyond "act as its company": all optional narrowings. */
export interface CredentialScope {
  /** Allowed calls as `model/method` patterns (`*` any run of characters); null: every call. */
  readonly patterns: readonly RegExp[] | null;
  /** Only methods declared GET. */
  readonly readOnly: boolean;
  readonly addresses: AddressList | null;
  /** Epoch ms after which the credential is refused; null: never. */
  readonly expiresAt: number | null;
}

export const UNSCOPED: CredentialScope = { patterns: null, readOnly: false, addresses: null, expiresAt: null };
