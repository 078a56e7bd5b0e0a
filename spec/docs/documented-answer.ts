/**
 * Whether a command's output is the answer a page documents with `# => <answer>`. The last line
 * printed is compared: as JSON when the documented answer is JSON (a string "..." stands for any
 * value, e.g. a generated key), else as text where `...` stands for anything.
 */
export function matchesDocumented(stdout: string, documented: string): boolean {
  const lines = stdout
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  const actual = (lines[lines.length - 1] ?? '').trim();
  const expected = parseJson(documented);
  if (expected.ok) {
    const got = parseJson(actual);
    return got.ok && sameShape(expected.value, got.value);
  }
  const pattern = documented.split('...').map(escapeRegExp).join('.*');
  return new RegExp(`^${pattern}$`).test(actual);
}

function sameShape(expected: unknown, actual: unknown): boolean {
  if (expected === '...') return true;
  if (Array.isArray(expected)) return Array.isArray(actual) && expected.length === actual.length && expected.every((e, i) => sameShape(e, actual[i]));
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const keys = Object.keys(expected);
    return keys.length === Object.keys(actual).length && keys.every((k) => k in actual && sameShape((expected as Record<string, unknown>)[k], (actual as Record<string, unknown>)[k]));
  }
  return expected === actual;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!/^[[{"]/.test(text.trim())) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
