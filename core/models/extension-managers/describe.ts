import { ExtensionCapabilities, ExtensionInfo } from '../../kernel/extension-catalog';
import { InstallRecord } from './install-records';
import { publicSettings } from '../../kernel/extension-settings-codec';

/**
 * Whether `upgrade` has something to do for an installed extension: migrations of a newer version
 * that have not run, or a version in the directory other than the one the company's row records.
 * One that does not load cannot be upgraded until it does.
 */
export function isUpgradable(row: InstallRecord, info: ExtensionInfo | undefined, pending: readonly string[]): boolean {
  return !!info?.loaded && (pending.length > 0 || (info.version ?? '') !== row.version);
}

/** An installed extension as `get` answers it: never the value of a secret setting. `pending`: its migrations not yet run. */
export function describeInstalled(row: InstallRecord, info: ExtensionInfo | undefined, pending: readonly string[]) {
  // Without a loaded manifest (its directory gone, or it fails to load) nothing says which stored
  // values are secret: all are kept back, as secrets are, rather than shown as plain settings.
  const { settings, secrets_set } = publicSettings(row.settings, info?.loaded ? info.settings : null);
  return {
    id: row.id,
    dir: row.name,
    name: info?.title ?? row.name,
    version: row.version,
    available_version: info?.version ?? null,
    /** True when `upgrade` would run new migrations or record a new version. */
    upgradable: isUpgradable(row, info, pending),
    pending_migrations: [...pending],
    status: row.status,
    settings,
    secrets_set,
    setting_fields: info?.settings ?? {},
    capabilities: capabilitiesOf(info),
    models: info?.models ?? [],
    loaded: info?.loaded ?? false,
    error: info ? info.error : 'Its directory is no longer in the extensions directory.',
    date_added: row.date_added,
  };
}

/** One line of `getAll`: every discovered extension, installed for the company or not (`pending` only matters when installed). */
export function describeListed(info: ExtensionInfo, row: InstallRecord | undefined, pending: readonly string[]) {
  return {
    id: row?.id ?? null,
    dir: info.name,
    name: info.title ?? info.name,
    kind: info.kind,
    version: info.version,
    installed_version: row?.version ?? null,
    /** Installed, and `upgrade` would run new migrations or record the version above. */
    upgradable: row ? isUpgradable(row, info, pending) : false,
    pending_migrations: row ? [...pending] : [],
    description: info.description,
    authors: info.authors,
    depends: info.depends,
    currencies: info.currencies,
    /** The settings the manifest declares (name → label, secret, required): what `add` takes in vars[settings]. */
    setting_fields: info.settings,
    /** What it asks for, before it is installed: methods it calls, hosts it reaches, tables it keeps, events it receives, tasks it runs unattended. */
    capabilities: capabilitiesOf(info),
    status: row ? row.status : info.loaded ? 'available' : 'failed',
    models: info.models,
    loaded: info.loaded,
    error: info.error,
    restarts: info.restarts,
  };
}

const NONE: ExtensionCapabilities = { uses: [], hosts: [], tables: [], events: [], tasks: [] };

/** A copy, so an answer never shares the catalogue's lists; a task as its manifest writes it. */
function capabilitiesOf(info: ExtensionInfo | undefined) {
  const c = info?.capabilities ?? NONE;
  return { uses: [...c.uses], hosts: [...c.hosts], tables: [...c.tables], events: [...c.events], tasks: c.tasks.map((t) => ({ name: t.name, schedule: t.schedule })) };
}
