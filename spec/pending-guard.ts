import path from 'node:path';
import type { Runner, Test } from 'mocha';
import { allowedPending, SuiteDatabase } from './allowed-pending';

// Mocha's global fixtures run once in the main process, in parallel mode too, with the runner as
// `this`: the setup listens to every test's pending event (workers' included), the teardown says
// what was skipped and, under CI, fails the run for any pending spec not on ALLOWED_PENDING. A
// suite that passes by skipping (PHP or Chromium missing, PostgreSQL unreachable, a forgotten
// .skip) then fails in CI, and a developer's `npm test` says what it did not run.

interface Skipped {
  readonly spec: string;
  readonly test: string;
}

const skipped: Skipped[] = [];
const SPEC_ROOT = __dirname;

/** A test's spec file under spec/, without extension (the build runs it from dist/spec). */
function specOf(file: string | undefined): string {
  if (!file) return '(unknown file)';
  return path
    .relative(SPEC_ROOT, file)
    .replace(/\.spec\.[jt]s$/, '')
    .split(path.sep)
    .join('/');
}

export function mochaGlobalSetup(this: Runner): void {
  this.on('pending', (test: Test) => skipped.push({ spec: specOf(test.file), test: test.fullTitle() }));
}

export function mochaGlobalTeardown(this: Runner): void {
  if (!skipped.length) return;
  const database: SuiteDatabase = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? 'postgres' : 'sqlite';
  const files = [...new Set(skipped.map((s) => s.spec))];
  console.log(`  Skipped on ${database}: ${skipped.length} test${skipped.length === 1 ? '' : 's'} in ${files.join(', ')}`);
  if (process.env.CI !== 'true') return;
  const refused = skipped.filter((s) => !allowedPending(s.spec, s.test, database));
  if (refused.length) {
    throw new Error(`Under CI no spec may be pending unless spec/allowed-pending.ts allows it on ${database}; pending:\n${refused.map((s) => `  ${s.spec}: ${s.test}`).join('\n')}`);
  }
}
