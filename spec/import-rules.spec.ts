import { expect } from 'chai';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '..', '..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/**
 * A small tree laid out like Tally's, each file importing what its comment says. The rules of
 * .dependency-cruiser.cjs (the ones `npm test` applies to the real tree) must flag exactly the
 * imports that break them, and pass the ones that point the allowed way.
 */
const TREE: Record<string, string[]> = {
  'core/kernel/errors.ts': ['./money'], // the errors leaf imports the kernel
  'core/kernel/tally-error.ts': ['./errors'],
  'core/kernel/money.ts': ['../db/int32'],
  'core/kernel/cycle-a.ts': ['type ./cycle-b'], // a cycle of type-only imports
  'core/kernel/cycle-b.ts': ['type ./cycle-a'],
  'core/kernel/up.ts': ['../billing/totals'],
  'core/kernel/outward.ts': ['../../host/api/route'],
  'core/config.ts': [],
  'core/db/int32.ts': [],
  'core/db/limits.ts': ['../kernel/tally-error', './int32', '../config'],
  'core/db/up.ts': ['../kernel/money'],
  'core/identity/tenancy.ts': ['../kernel/tally-error', '../db/int32'],
  'core/identity/up.ts': ['../models/clients'],
  'core/billing/totals.ts': ['../kernel/money', '../identity/tenancy'],
  'core/billing/up.ts': ['../models/clients'],
  'core/models/clients.ts': ['./clients/client-notes', './clients.fields', '../billing/totals', '../identity/tenancy'],
  'core/models/clients.fields.ts': [],
  'core/models/clients/client-notes.ts': ['../clients.fields', '../../billing/totals'],
  'core/models/taxes.ts': ['./clients', './clients.fields'],
  'core/models/invoices/lines.ts': ['../clients/client-notes'],
  'core/models/services.ts': ['../automation/billing-run', '../trust/call-guard'],
  'core/models/index.ts': ['./clients', './clients/client-notes', './taxes'],
  'core/automation/billing-run.ts': ['../billing/totals', '../installation', '../models/clients/client-notes', '../trust/call-guard'],
  'core/trust/call-guard.ts': ['../identity/tenancy', '../models/clients', '../installation'],
  'core/installation.ts': ['./models/index', './trust/call-guard'],
  'host/api/route.ts': ['../../core/installation', '../../core/models/clients/client-notes'],
  'host/extensions/load.ts': ['../cli/main', '../../core/installation'],
  'host/cli/main.ts': ['../extensions/load', '../api/route'],
};

const EXPECTED = [
  'automation-beside-models: core/automation/billing-run.ts → core/models/clients/client-notes.ts',
  'automation-beside-models: core/automation/billing-run.ts → core/trust/call-guard.ts',
  'billing-imports-downward: core/billing/up.ts → core/models/clients.ts',
  'core-not-host: core/kernel/outward.ts → host/api/route.ts',
  'db-imports-downward: core/db/up.ts → core/kernel/money.ts',
  'errors-are-a-leaf: core/kernel/errors.ts → core/kernel/money.ts',
  'extensions-not-cli: host/extensions/load.ts → host/cli/main.ts',
  'identity-imports-downward: core/identity/up.ts → core/models/clients.ts',
  'kernel-imports-downward: core/kernel/up.ts → core/billing/totals.ts',
  'model-folders-are-private-outside: core/automation/billing-run.ts → core/models/clients/client-notes.ts',
  'model-folders-are-private-outside: host/api/route.ts → core/models/clients/client-notes.ts',
  'models-are-private: core/models/invoices/lines.ts → core/models/clients/client-notes.ts',
  'models-are-private: core/models/taxes.ts → core/models/clients.ts',
  'models-import-downward: core/models/services.ts → core/automation/billing-run.ts',
  'models-import-downward: core/models/services.ts → core/trust/call-guard.ts',
  'no-circular: core/kernel/cycle-a.ts ↔ core/kernel/cycle-b.ts',
  'no-circular: host/cli/main.ts ↔ host/extensions/load.ts',
  'no-circular: core/installation.ts ↔ core/trust/call-guard.ts',
  'trust-imports-downward: core/trust/call-guard.ts → core/installation.ts',
];

function source(imports: string[]): string {
  const lines = imports.map((spec, i) => {
    const typeOnly = spec.startsWith('type ');
    return `import ${typeOnly ? 'type ' : ''}{ x as x${i} } from '${spec.replace(/^type /, '')}';`;
  });
  return `${lines.join('\n')}\nexport const x = 1;\nexport type Used = [${imports.map((_, i) => `typeof x${i}`).join(', ')}];\n`;
}

describe('the import rules (.dependency-cruiser.cjs)', function () {
  this.timeout(120_000);
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-import-rules-'));
    for (const [file, imports] of Object.entries(TREE)) {
      fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), source(imports));
    }
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true } }));
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('flag each import that breaks a rule, type-only cycles included, and only those', async () => {
    const run = await promisify(execFile)(process.execPath, [DEPCRUISE, '--config', CONFIG, '--output-type', 'json', 'core', 'host'], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch(
      (failed: { stdout?: string }) => ({ stdout: failed.stdout ?? '' }),
    );
    const result = JSON.parse(run.stdout) as { summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> } };
    // A cycle is reported once, at whichever of its imports the cruise met first: name it by its files.
    const named = (v: { rule: { name: string }; from: string; to: string }) =>
      v.rule.name === 'no-circular' ? `no-circular: ${[v.from, v.to].sort().join(' ↔ ')}` : `${v.rule.name}: ${v.from} → ${v.to}`;
    const found = [...new Set(result.summary.violations.map(named))];
    expect(found.sort()).to.deep.equal([...EXPECTED].sort());
  });
});
