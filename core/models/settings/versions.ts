import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { bool, string } from '../../kernel/shape';
import { tallyVersion } from '../../kernel/tally-version';
import { executedMigrations, KNOWN_MIGRATIONS } from '../../db/migration-state';

/**
 * The reference's version methods of Settings: the installation's version (its package.json), the
 * database's (the last schema migration it ran), and whether the database is behind the code.
 * Tally migrates at start, so a running installation is upgradable only while another process of a
 * newer build has not started yet.
 */
@facet('settings')
export class SettingsVersions {
  constructor(private readonly ctx: CallContext) {}

  @callable({ verb: 'GET', returns: string({ example: '0.1.0' }), description: "The installation's version." })
  getVersion() {
    return tallyVersion();
  }

  @callable({ verb: 'GET', returns: string({ example: '025_module_rows' }), description: 'The version of the database: the name of the last schema migration it has run.' })
  async getDbVersion() {
    const executed = await executedMigrations(this.ctx.db);
    return executed[executed.length - 1] ?? '';
  }

  @callable({ verb: 'GET', returns: bool(), description: 'True when this build knows schema migrations the database has not run (it is migrated at the next start).' })
  async upgradable() {
    const executed = new Set(await executedMigrations(this.ctx.db));
    return KNOWN_MIGRATIONS.some((name) => !executed.has(name));
  }
}
