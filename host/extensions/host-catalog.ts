import { Installation } from '../../core/installation';
import { CallContext } from '../../core/kernel/call-context';
import { formatUtc } from '../../core/kernel/timestamps';
import { Database, Db } from '../../core/db/schema';
import { Transaction } from 'kysely';
import { DirectSession } from './capabilities/direct-session';
import { joined } from './capabilities/extension-session';
import { sessionOf } from './capabilities/session-database';
import { ExtensionCatalog, ExtensionInfo, ExtensionType, InstallRefused } from '../../core/kernel/extension-catalog';
import { ExtensionFailure, ExtensionSandbox, ExtensionThrew } from './sandbox/extension-sandbox';
import { RefusedQuery } from './capabilities/query-guard';
import { SandboxLimits } from './sandbox-limits';
import { callInfo, serveRequests } from './host-requests';
import { deleteCompanyRows } from './company-rows';
import { Task } from './protocol';
import { runUnattended } from './unattended';
import { AUTOMATION_CALLER } from '../../core/automation/company-scope';

/** One discovered extension: `worker` only when it loaded. */
export interface CatalogEntry {
  readonly info: ExtensionInfo;
  readonly worker?: ExtensionSandbox;
  readonly migrations: readonly string[];
}

interface Enabled {
  readonly at: number;
  readonly names: Set<string>;
}

/**
 * The host's extension runtime as the managers and the proxies see it: what was discovered (and
 * why some did not load), install, upgrade and uninstall inside the manager's transaction, and which
 * extensions each company has enabled, cached for `ttlMs` like settings and credentials.
 */
export class HostCatalog extends ExtensionCatalog {
  private readonly enabled = new Map<number, Enabled>();

  constructor(
    private readonly installation: Installation,
    private readonly entries: readonly CatalogEntry[],
    private readonly ttlMs: number,
    private readonly limits: SandboxLimits,
  ) {
    super();
  }

  override list(): ExtensionInfo[] {
    return this.entries.map((e) => ({ ...e.info, restarts: e.worker?.restarts ?? 0 }));
  }

  override async install(type: ExtensionType, name: string, ctx: CallContext): Promise<void> {
    const entry = this.loaded(type, name);
    await this.assertTablesFree(entry, ctx);
    await this.explained(async (refusals) => {
      await this.migrateUp(entry, ctx, refusals);
      await this.runTask(entry, { kind: 'hook', hook: 'install' }, ctx, refusals);
    });
  }

  override async upgrade(type: ExtensionType, name: string, ctx: CallContext, from: string, to: string): Promise<void> {
    const entry = this.loaded(type, name);
    await this.explained(async (refusals) => {
      await this.migrateUp(entry, ctx, refusals);
      await this.runTask(entry, { kind: 'hook', hook: 'upgrade', from, to }, ctx, refusals);
    });
  }

  override async pendingMigrations(type: ExtensionType, name: string, ctx: CallContext): Promise<string[]> {
    const entry = this.entries.find((e) => e.info.type === type && e.info.name === name);
    if (!entry?.worker || !entry.migrations.length) return [];
    const applied = new Set(await this.applied(name, ctx));
    return entry.migrations.filter((m) => !applied.has(m));
  }

  override async uninstall(type: ExtensionType, name: string, ctx: CallContext, dropTables: boolean): Promise<void> {
    const entry = this.loaded(type, name);
    await this.runTask(entry, { kind: 'hook', hook: 'uninstall' }, ctx);
    // This company's rows go whatever the hook did: the tables stay for the other companies, or
    // when a migration has no down().
    await deleteCompanyRows(ctx.db, this.installation.connection.dialect, entry.info.capabilities.tables, ctx.companyId);
    if (!dropTables) return;
    const applied = await this.applied(name, ctx);
    if (applied.length) await this.runTask(entry, { kind: 'migrate', direction: 'down', names: applied.reverse() }, ctx);
    await ctx.db.deleteFrom('extensions_migrations').where('extension', '=', name).execute();
  }

  override forget(companyId: number): void {
    this.enabled.delete(companyId);
  }

  async enabledFor(companyId: number, type: ExtensionType, name: string, db: Db): Promise<boolean> {
    let hit = this.enabled.get(companyId);
    if (!hit || Date.now() - hit.at >= this.ttlMs) {
      const rows = await db.selectFrom('extensions_installed').select(['type', 'name']).where('company_id', '=', companyId).where('status', '=', 'enabled').execute();
      hit = { at: Date.now(), names: new Set(rows.map((r) => `${r.type}:${r.name}`)) };
      this.enabled.set(companyId, hit);
    }
    return hit.names.has(`${type}:${name}`);
  }

  override async runScheduled(type: ExtensionType, name: string, companyId: number, task: string, due: string): Promise<void> {
    this.loaded(type, name);
    try {
      await this.runUnattended(name, companyId, { kind: 'task', task, due }, AUTOMATION_CALLER);
    } catch (error) {
      if (error instanceof ExtensionThrew) throw new Error("It threw an error (the host's log has what it threw).");
      throw error instanceof ExtensionFailure ? new Error(error.reason.endsWith('.') ? error.reason : `${error.reason}.`) : error;
    }
  }

  /** The loaded extensions whose manifest lists `type`, that `companyId` has installed and enabled and has not unsubscribed from it, by name. */
  async subscribersOf(type: string, companyId: number): Promise<string[]> {
    const listing = this.entries.filter((e) => e.worker && e.info.capabilities.events.includes(type)).map((e) => e.info.name);
    if (!listing.length) return [];
    const rows = await this.installation.db
      .selectFrom('extensions_installed')
      .select('name')
      .where('company_id', '=', companyId)
      .where('status', '=', 'enabled')
      .where('name', 'in', listing)
      .execute();
    // A subscription the company disabled (plugin_manager/editEvent enabled 0) stops the event's deliveries to that plugin.
    const disabled = await this.installation.db
      .selectFrom('plugin_events')
      .innerJoin('extensions_installed', 'extensions_installed.id', 'plugin_events.plugin_id')
      .select('extensions_installed.name')
      .where('plugin_events.company_id', '=', companyId)
      .where('plugin_events.event', '=', type)
      .where('plugin_events.enabled', '=', 0)
      .execute();
    const enabled = new Set(rows.map((r) => r.name));
    for (const row of disabled) enabled.delete(row.name);
    return listing.filter((name) => enabled.has(name)).sort();
  }

  /** Runs an event handler or a task of a loaded extension as `companyId` (unattended.ts); rejects when it fails. */
  async runUnattended(name: string, companyId: number, task: Task, caller: string): Promise<void> {
    const entry = this.entries.find((e) => e.info.name === name);
    if (!entry?.worker) throw new Error(`The extension ${name} is not loaded${entry?.info.error ? `: ${entry.info.error}` : ''}.`);
    await runUnattended(this.installation, entry.info, entry.worker, this.limits, companyId, task, caller);
  }

  async close(): Promise<void> {
    await Promise.all(this.entries.map((e) => e.worker?.close()));
  }

  private loaded(type: ExtensionType, name: string): Required<CatalogEntry> {
    const entry = this.entries.find((e) => e.info.type === type && e.info.name === name);
    if (!entry?.worker) throw new Error(`The ${type} ${name} is not loaded.`);
    return entry as Required<CatalogEntry>;
  }

  /**
   * An install or upgrade that failed in the sandbox, as the reason the host knows: a statement it
   * refused (a table the manifest does not declare), a deadline or limit it enforced. What the
   * extension itself threw stays in the host's log (the sandbox logs it): its text is the extension's.
   */
  private async explained(work: (refusals: string[]) => Promise<void>): Promise<void> {
    const refusals: string[] = [];
    try {
      await work(refusals);
    } catch (error) {
      if (!(error instanceof ExtensionFailure)) throw error;
      if (refusals.length) throw new InstallRefused(`the host refused a statement: ${refusals[0]}`);
      if (error instanceof ExtensionThrew) throw new InstallRefused("its migrations or hook threw an error (the host's log has what it threw).");
      throw new InstallRefused(error.reason.endsWith('.') ? error.reason : `${error.reason}.`);
    }
  }

  /**
   * A table two extensions' manifests declare belongs to the one installed first: the other cannot
   * be installed while it is (load-extensions.ts then leaves the other out at the next start).
   */
  private async assertTablesFree(entry: Required<CatalogEntry>, ctx: CallContext): Promise<void> {
    const mine = new Set(entry.info.capabilities.tables.map((t) => t.toLowerCase()));
    const rivals = this.entries.filter((e) => e.info.name !== entry.info.name && e.info.capabilities.tables.some((t) => mine.has(t.toLowerCase())));
    if (!rivals.length) return;
    const holder = await ctx.db
      .selectFrom('extensions_installed')
      .select('name')
      .where(
        'name',
        'in',
        rivals.map((r) => r.info.name),
      )
      .limit(1)
      .executeTakeFirst();
    if (!holder) return;
    const table = rivals.find((r) => r.info.name === holder.name)!.info.capabilities.tables.find((t) => mine.has(t.toLowerCase()));
    throw new InstallRefused(`its manifest declares the table "${table}", which belongs to the installed extension "${holder.name}".`);
  }

  /** Runs and records the migrations no company's install or upgrade has run yet (the tables are shared). */
  private async migrateUp(entry: Required<CatalogEntry>, ctx: CallContext, refusals?: string[]): Promise<void> {
    const name = entry.info.name;
    const applied = new Set(await this.applied(name, ctx));
    const pending = entry.migrations.filter((m) => !applied.has(m));
    if (!pending.length) return;
    await this.runTask(entry, { kind: 'migrate', direction: 'up', names: pending }, ctx, refusals);
    const now = formatUtc(new Date());
    await ctx.db
      .insertInto('extensions_migrations')
      .values(pending.map((migration) => ({ extension: name, migration, date_run: now })))
      .execute();
  }

  private async applied(name: string, ctx: CallContext): Promise<string[]> {
    const rows = await ctx.db.selectFrom('extensions_migrations').select('migration').where('extension', '=', name).orderBy('migration').execute();
    return rows.map((r) => r.migration);
  }

  /** `refusals` collects the statements the host refused the extension meanwhile, for `explained`. */
  private runTask(entry: Required<CatalogEntry>, task: Parameters<ExtensionSandbox['run']>[0], ctx: CallContext, refusals?: string[]) {
    // Through the manager's session: the manager keeps or drops the whole install.
    const outer = sessionOf(ctx.db);
    const session = outer ? joined(outer) : new DirectSession(ctx.db as Transaction<Database>);
    const serve = serveRequests(this.installation, entry.info, ctx, session, this.limits, task.kind === 'migrate');
    return entry.worker.run(task, callInfo(ctx), async (request) => {
      try {
        return await serve(request);
      } catch (error) {
        if (error instanceof RefusedQuery) refusals?.push(error.message);
        throw error;
      }
    });
  }
}
