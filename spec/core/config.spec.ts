import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, SETTINGS } from '../../core/config';

const README = path.resolve(__dirname, '..', '..', '..', 'README.md');

describe('configuration', () => {
  it('reads every variable with its default when the environment is empty', () => {
    const config = loadConfig({});
    expect(config.port).to.equal(8080);
    expect(config.trustProxy).to.equal(false);
    expect(config.databaseUrl).to.match(/data[\\/]tally\.sqlite$/);
  });

  it('parses the values it is given', () => {
    const config = loadConfig({ PORT: '9000', TRUST_PROXY: 'true', LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://x@h/db' });
    expect(config).to.include({ port: 9000, trustProxy: true, logLevel: 'silent', databaseUrl: 'postgres://x@h/db' });
  });

  for (const [variable, bad, accepts] of [
    ['PORT', 'eighty', 'a whole number from 0 to 65535'],
    ['PORT', '70000', 'a whole number from 0 to 65535'],
    ['TRUST_PROXY', 'maybe', '"true" or "false"'],
    ['LOG_LEVEL', 'loud', 'one of fatal, error'],
    ['DATABASE_POOL', '0', 'a whole number from 1'],
  ]) {
    it(`stops on ${variable}=${bad}, naming the variable and what it accepts`, () => {
      expect(() => loadConfig({ [variable]: bad })).to.throw(ConfigError, new RegExp(`^${variable} must be ${accepts.replace(/[()]/g, '\\$&')}`));
    });
  }

  it('the README documents every variable, and only those', () => {
    const text = fs.readFileSync(README, 'utf8');
    const section = text.slice(text.indexOf('## Configuration'));
    const table = section.slice(0, section.indexOf('\n\n', section.search(/\|\s*-{3,}/)));
    const documented = [...table.matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((m) => m[1]);
    expect(documented.sort()).to.deep.equal(SETTINGS.map((s) => s.variable).sort());
  });

  it('nothing but the configuration module reads process.env in core/ and host/', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.ts') && fs.readFileSync(full, 'utf8').includes('process.env') && !full.endsWith(path.join('core', 'config.ts'))) offenders.push(full);
      }
    };
    const root = path.resolve(__dirname, '..', '..', '..');
    walk(path.join(root, 'core'));
    walk(path.join(root, 'host'));
    expect(offenders).to.deep.equal([]);
  });
});
