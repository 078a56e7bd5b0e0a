import { injectable } from 'tsyringe';
import { CallContext } from '../../kernel/call-context';
import { TallyError } from '../../kernel/tally-error';
import { formatUtc } from '../../kernel/timestamps';
import { isUniqueViolation } from '../../db/errors';
import { ExtensionCatalog, ExtensionInfo, ExtensionType, InstallRefused } from '../../kernel/extension-catalog';
import { describeInstalled, describeListed, isUpgradable } from './describe';
import { InstallRecord, InstallRecords } from './install-records';
import { decodeSettings, encodeSettings, mergeSettings } from '../../kernel/extension-settings-codec';
import { emit } from '../../events/emit';

/**
 * Per-company lifecycle of one type of extension: add (install: migrations, then the install
 * hook), edit (settings), enable, disable, upgrade (a new version's migrations, then the upgrade
 * hook), delete (uninstall), get, getAll. The three managers
 * differ only in their type; their callables are declared in manager-callables.ts.
 */
// The decorator makes TypeScript record the constructor's parameter types, which the managers inherit.
@(injectable() as ClassDecorator)
export abstract class ExtensionManager {
  protected abstract readonly type: ExtensionType;
  private readonly records: InstallRecords;

  constructor(
    protected readonly ctx: CallContext,
    protected readonly catalog: ExtensionCatalog,
  ) {
    this.records = new InstallRecords(ctx.db, ctx.companyId);
  }

  async add(vars: Record<string, unknown>) {
    // The reference names a module or gateway by its `class`, a plugin by its `dir`.
    const given = vars.dir ?? vars.class;
    const name = typeof given === 'string' ? given.trim() : '';
    const info = await this.installable(name);
    const merged = mergeSettings(vars.settings, info.settings, {});
    if ('errors' in merged) throw TallyError.invalid(merged.errors);
    let id: number;
    try {
      id = await this.records.add({
        type: this.type,
        name,
        version: info.version ?? '',
        status: 'enabled',
        settings: encodeSettings(merged.values, info.settings, this.ctx.systemKey),
        date_added: formatUtc(new Date()),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw this.invalidDir('installed', `The ${this.type} "${name}" is already installed.`);
      throw error;
    }
    try {
      await this.catalog.install(this.type, name, this.ctx);
    } catch (error) {
      if (error instanceof InstallRefused) throw this.invalidDir('install', `The ${this.type} "${name}" could not be installed: ${error.message}`);
      throw error;
    }
    this.catalog.forget(this.ctx.companyId);
    await emit(this.ctx, 'Extensions.installed', { id, kind: this.type, name, version: info.version ?? '' });
    return id;
  }

  async edit(id: number, vars: Record<string, unknown>) {
    const row = await this.existing(id);
    const info = this.catalog.find(this.type, row.name);
    const declared = info?.settings ?? {};
    const merged = mergeSettings(vars.settings, declared, decodeSettings(row.settings, declared, this.ctx.systemKey));
    if ('errors' in merged) throw TallyError.invalid(merged.errors);
    await this.records.update(id, { settings: encodeSettings(merged.values, declared, this.ctx.systemKey) });
    return this.get(id);
  }

  async enable(id: number) {
    return this.setStatus(id, 'enabled');
  }

  async disable(id: number) {
    return this.setStatus(id, 'disabled');
  }

  async delete(id: number) {
    const row = await this.records.byId(this.type, id);
    if (!row) return null;
    const dependents = (await this.records.all()).filter((r) => r.id !== id && this.catalog.find(r.type as ExtensionType, r.name)?.depends.includes(row.name));
    if (dependents.length) {
      throw TallyError.invalid({
        [this.idName]: { dependents: `The ${this.type} "${row.name}" is needed by ${dependents.map((d) => `"${d.name}"`).join(', ')}; delete ${dependents.length > 1 ? 'those' : 'that'} first.` },
      });
    }
    const info = this.catalog.find(this.type, row.name);
    if (info && !info.loaded) {
      throw TallyError.invalid({ [this.idName]: { loaded: `The ${this.type} "${row.name}" cannot be uninstalled while it fails to load: ${info.error}` } });
    }
    await this.records.remove(id);
    if (info) await this.catalog.uninstall(this.type, row.name, this.ctx, (await this.records.elsewhere(this.type, row.name)) === 0);
    this.catalog.forget(this.ctx.companyId);
    await emit(this.ctx, 'Extensions.uninstalled', { id, kind: this.type, name: row.name, version: row.version });
    return null;
  }

  /**
   * Brings the company's installation up to the version in the extensions directory: the migrations
   * no company has run yet (the tables are shared, so another company's upgrade may have run them),
   * then the upgrade hook as this company, then the new version on this company's row only. With
   * nothing to do (same version, no pending migration) nothing runs and it still succeeds.
   */
  async upgrade(id: number) {
    const row = await this.existing(id);
    const info = this.catalog.find(this.type, row.name);
    if (!info?.loaded) {
      const why = info ? `it fails to load: ${info.error}` : 'its directory is no longer in the extensions directory';
      throw TallyError.invalid({ [this.idName]: { loaded: `The ${this.type} "${row.name}" cannot be upgraded while ${why}.` } });
    }
    if (!isUpgradable(row, info, await this.pending(row.name))) return null;
    // As add: a new version that needs another extension runs only where that one is installed.
    const installed = new Set((await this.records.all()).map((r) => r.name));
    const missing = info.depends.filter((d) => !installed.has(d));
    if (missing.length) {
      throw TallyError.invalid({ [this.idName]: { depends: `Version ${info.version} of the ${this.type} "${row.name}" needs ${missing.map((d) => `"${d}"`).join(', ')} installed first.` } });
    }
    const version = info.version ?? '';
    try {
      await this.catalog.upgrade(this.type, row.name, this.ctx, row.version, version);
    } catch (error) {
      if (error instanceof InstallRefused) throw TallyError.invalid({ [this.idName]: { upgrade: `The ${this.type} "${row.name}" could not be upgraded: ${error.message}` } });
      throw error;
    }
    await this.records.update(id, { version });
    return null;
  }

  async get(id: number) {
    const row = await this.records.byId(this.type, id);
    return row ? this.describeRow(row) : (false as const);
  }

  async getAll() {
    const rows = (await this.records.all()).filter((r) => r.type === this.type);
    const listed = this.catalog.list().filter((e) => e.type === this.type);
    const missing = rows.filter((r) => !listed.some((e) => e.name === r.name));
    const installed = await Promise.all(
      listed.map(async (info) => {
        const row = rows.find((r) => r.name === info.name);
        return describeListed(info, row, row ? await this.pending(info.name) : []);
      }),
    );
    return [...installed, ...missing.map((r) => describeInstalled(r, undefined, []))];
  }

  /** An installed row as the API answers it, with whether an upgrade has something to do. */
  protected async describeRow(row: InstallRecord) {
    return describeInstalled(row, this.catalog.find(this.type, row.name), await this.pending(row.name));
  }

  /** The extension's migrations that have not run yet (a newer version's). */
  protected pending(name: string): Promise<string[]> {
    return this.catalog.pendingMigrations(this.type, name, this.ctx);
  }

  protected get idName(): string {
    return `${this.type}_id`;
  }

  private async setStatus(id: number, status: 'enabled' | 'disabled') {
    await this.existing(id);
    await this.records.update(id, { status });
    this.catalog.forget(this.ctx.companyId);
    return this.get(id);
  }

  private async existing(id: number): Promise<InstallRecord> {
    const row = await this.records.byId(this.type, id);
    if (!row) throw TallyError.invalid({ [this.idName]: { exists: `Invalid ${this.type} ID.` } });
    return row;
  }

  /** The extension named by vars[dir], checked in the order a person would fix the problems. */
  private async installable(name: string): Promise<ExtensionInfo> {
    if (!name) throw this.invalidDir('empty', `Please name the ${this.type} to install in vars[dir].`);
    const info = this.catalog.find(this.type, name);
    if (!info) {
      const known = this.catalog
        .list()
        .filter((e) => e.type === this.type)
        .map((e) => e.name)
        .sort();
      throw this.invalidDir('exists', `There is no ${this.type} "${name}".${known.length ? ` Available: ${known.join(', ')}.` : ''}`);
    }
    if (!info.loaded) throw this.invalidDir('loaded', `The ${this.type} "${name}" cannot be installed: ${info.error}`);
    if (await this.records.byName(this.type, name)) throw this.invalidDir('installed', `The ${this.type} "${name}" is already installed.`);
    const installed = new Set((await this.records.all()).map((r) => r.name));
    const missing = info.depends.filter((d) => !installed.has(d));
    if (missing.length) throw this.invalidDir('depends', `The ${this.type} "${name}" needs ${missing.map((d) => `"${d}"`).join(', ')} installed first.`);
    return info;
  }

  private invalidDir(code: string, message: string): TallyError {
    return TallyError.invalid({ dir: { [code]: message } });
  }
}
