import { EXTENSION_TYPES, ExtensionCapabilities, ExtensionCatalog, ExtensionType, SettingDeclaration } from '../../core/kernel/extension-catalog';
import { AdminRequest, callAs, hasCallable } from './admin-request';

/** One extension as the extensions page shows it, from its manager's getAll (and get, when installed). */
export interface ListedExtension {
  readonly type: ExtensionType;
  readonly id: number | null;
  readonly dir: string;
  readonly name: string;
  readonly kind: string | null;
  readonly version: string | null;
  readonly installed_version: string | null;
  /** Installed, and its manager's upgrade would run new migrations or record a new version. */
  readonly upgradable: boolean;
  /** Its migrations not yet run, which an upgrade runs. */
  readonly pending_migrations: readonly string[];
  readonly description: string | null;
  readonly authors: ReadonlyArray<{ name: string; url?: string }>;
  readonly status: string;
  readonly loaded: boolean;
  readonly error: string | null;
  /** What its manifest asks for: core methods it calls, hosts it sends HTTP to, its tables. */
  readonly capabilities: ExtensionCapabilities;
  /** The settings its manifest declares (names, labels, which are secret or required). */
  readonly declared: Readonly<Record<string, SettingDeclaration>>;
  /** Stored values of its plain settings (installed only); secrets are never shown. */
  readonly values: Readonly<Record<string, string>>;
  /** Secret settings that have a value. */
  readonly secretsSet: readonly string[];
}

export const managerOf = (type: ExtensionType) => `${type}_manager`;

export const hasExtensionManagers = (request: Pick<AdminRequest, 'installation'>) => EXTENSION_TYPES.every((type) => hasCallable(request.installation, managerOf(type), 'getAll'));

/**
 * Every discovered extension of a type for the company in view, through its manager. The manager's
 * list does not carry the manifest's setting declarations, so those are read from the extension
 * runtime's catalog, the same object the managers validate settings against.
 */
export async function listExtensions(request: AdminRequest, type: ExtensionType): Promise<ListedExtension[]> {
  const rows = (await callAs(request, managerOf(type), 'getAll')) as Array<Omit<ListedExtension, 'type' | 'declared' | 'values' | 'secretsSet'>>;
  const catalog = catalogOf(request);
  return Promise.all(
    rows.map(async (row) => {
      const declared = catalog.find(type, row.dir)?.settings ?? {};
      let values: Record<string, string> = {};
      let secretsSet: string[] = [];
      if (row.id !== null && Object.keys(declared).length) {
        const installed = (await callAs(request, managerOf(type), 'get', { [`${type}_id`]: row.id })) as { settings: Record<string, string>; secrets_set: string[] } | null;
        values = installed?.settings ?? {};
        secretsSet = installed?.secrets_set ?? [];
      }
      return { ...row, type, declared, values, secretsSet };
    }),
  );
}

/** The settings an extension's manifest declares; empty for one the runtime does not know. */
export function declaredSettings(request: AdminRequest, type: ExtensionType, dir: string): Readonly<Record<string, SettingDeclaration>> {
  return catalogOf(request).find(type, dir)?.settings ?? {};
}

/** The extension runtime's catalog, from the installation's container (the managers get theirs there too). */
function catalogOf(request: AdminRequest): ExtensionCatalog {
  return request.installation.container.resolve(ExtensionCatalog);
}

/** The fields a module's manifest declares for its rows (servers): `row_fields`; empty for one the runtime does not know. */
export function declaredRowFields(request: AdminRequest, dir: string): Readonly<Record<string, SettingDeclaration>> {
  return catalogOf(request).find('module', dir)?.rowFields ?? {};
}
