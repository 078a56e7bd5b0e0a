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
  /**
   * The staff member an in-process call is made for (the administrative area's signed-in staff):
   * the call path holds their writes to their staff group's permissions (core/trust/staff-permissions.ts).
   */
  readonly staffId?: number;
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
