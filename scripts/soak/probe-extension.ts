import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A plain-JavaScript plugin dropped into a fresh extensions directory for the soak run:
 * `soak_probe.probe/ping` answers, `soak_probe.probe/crash` blows its sandbox's memory limit, which
 * stops that sandbox (the next call starts a fresh one).
 */
export function writeProbeExtension(): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-soak-extensions-'));
  const plugin = path.join(dir, 'plugins', 'soak_probe');
  fs.mkdirSync(plugin, { recursive: true });
  fs.writeFileSync(path.join(plugin, 'config.json'), JSON.stringify({ name: 'Soak probe', version: '1.0.0', description: 'Answers and crashes on demand.', authors: [{ name: 'Tally' }] }));
  fs.writeFileSync(
    path.join(plugin, 'index.js'),
    [
      'class Probe {',
      '  ping() { return "pong"; }',
      '  crash() { const kept = []; for (;;) kept.push(new Uint8Array(1 << 24)); }',
      '}',
      "Probe.callable = { ping: { verb: 'GET' }, crash: { verb: 'POST' } };",
      'module.exports = { models: { probe: Probe } };',
      '',
    ].join('\n'),
  );
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
