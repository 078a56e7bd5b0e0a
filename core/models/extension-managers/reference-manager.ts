import { injectable } from 'tsyringe';
import { ExtensionManager } from './extension-manager';
import { describeListed } from './describe';
import { InstallRecords } from './install-records';

/**
 * The reference's reading methods of the three managers, on top of Tally's lifecycle: installed
 * and available lists, look-up by directory (the reference's plugin dir / module or gateway
 * class), isInstalled. `company_id` may only name the caller's company: another one reads as a
 * company with nothing installed.
 */
@(injectable() as ClassDecorator)
export abstract class ReferenceManager extends ExtensionManager {
  /** Tally's list: every discovered extension, installed for the company (with id and status) or available. */
  override async getAll(companyId: number | null = null) {
    return this.ownCompany(companyId) ? super.getAll() : [];
  }

  /** The extensions of this type the caller's company has installed. */
  async getInstalled() {
    const rows = (await this.installRecords().all()).filter((r) => r.type === this.type);
    return Promise.all(rows.map((row) => this.describeRow(row)));
  }

  /** The extensions of this type that load and the company has not installed. */
  async getAvailable(companyId: number | null = null) {
    const installed = new Set((await this.installRecords().all()).filter((r) => r.type === this.type && this.ownCompany(companyId)).map((r) => r.name));
    return this.catalog
      .list()
      .filter((e) => e.type === this.type && e.loaded && !installed.has(e.name))
      .map((info) => describeListed(info, undefined, []));
  }

  /** The company's installations of the extension in directory `name` (a list, as the reference answers). */
  async getByName(name: string, companyId: number | null = null) {
    if (!this.ownCompany(companyId)) return [];
    const row = await this.installRecords().byName(this.type, name);
    return row ? [await this.describeRow(row)] : [];
  }

  async isInstalledName(name: string, companyId: number | null = null) {
    return (await this.getByName(name, companyId)).length > 0;
  }

  protected ownCompany(companyId: number | null | undefined): boolean {
    return companyId === null || companyId === undefined || companyId === this.ctx.companyId;
  }

  protected installRecords() {
    return new InstallRecords(this.ctx.db, this.ctx.companyId);
  }
}
