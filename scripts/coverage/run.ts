import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Installation } from '../../core/installation';
import { resolveModelMethod } from '../../core/kernel/model-container';
import { listedMethods } from './reference-methods';

/**
 * How much of the reference's public model API Tally answers: every method REFERENCE-MODELS.md
 * lists, resolved as a call would be (a callable method of a registered model), over a fresh
 * scratch installation. Prints the share of all listed methods and of the signature tables, then
 * each missing method.
 *
 *   npm run coverage [-- path/to/REFERENCE-MODELS.md]     (default ../shared/REFERENCE-MODELS.md)
 */
async function main(): Promise<void> {
  const file = path.resolve(process.argv[2] ?? path.join(__dirname, '../../../../shared/REFERENCE-MODELS.md'));
  if (!fs.existsSync(file)) throw new Error(`No reference list at ${file}: give its path.`);
  const listed = listedMethods(fs.readFileSync(file, 'utf8'));
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-coverage-'));
  const installation = await Installation.open({ databaseUrl: path.join(folder, 'coverage.sqlite') });
  try {
    const answered = (m: { model: string; method: string }) => resolveModelMethod(installation.container, m.model, m.method).found;
    const missing = listed.filter((m) => !answered(m));
    const signed = listed.filter((m) => m.signed);
    const signedMissing = signed.filter((m) => !answered(m));
    const share = (part: number, whole: number) => `${whole - part} of ${whole} (${Math.round(((whole - part) / whole) * 100)}%)`;
    const models = new Set(listed.map((m) => m.model));
    const modelsAnswered = [...models].filter((model) => listed.some((m) => m.model === model && answered(m)));
    console.log(`Reference list: ${file}`);
    console.log(`All listed methods:    ${share(missing.length, listed.length)} answered`);
    console.log(`Signature tables:      ${share(signedMissing.length, signed.length)} answered`);
    console.log(`Models with a method:  ${modelsAnswered.length} of ${models.size}`);
    console.log(`\nMissing (${missing.length}; * = in a signature table):`);
    const byModel = new Map<string, string[]>();
    for (const m of missing) byModel.set(m.model, [...(byModel.get(m.model) ?? []), `${m.method}${m.signed ? '*' : ''}`]);
    for (const [model, methods] of byModel) console.log(`  ${model}: ${methods.join(', ')}`);
  } finally {
    await installation.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
