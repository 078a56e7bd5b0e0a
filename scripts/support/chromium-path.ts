import fs from 'node:fs';
import path from 'node:path';

/** The names Chromium goes by on PATH: Debian's package, and Ubuntu's and Fedora's. */
const NAMES = ['chromium', 'chromium-browser'];

/**
 * The Chromium the browser specs drive (with playwright-core, which downloads no browser), found
 * the one way the specs and CI's check both use: TALLY_CHROMIUM when set, else the first of
 * NAMES on PATH. Undefined when there is none (or TALLY_CHROMIUM names no file).
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TALLY_CHROMIUM) return executable(env.TALLY_CHROMIUM) ? env.TALLY_CHROMIUM : undefined;
  const folders = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of NAMES) {
    for (const folder of folders) {
      const candidate = path.join(folder, name);
      if (executable(candidate)) return candidate;
    }
  }
  return undefined;
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
