import { ModelEntry } from './model-entry';

/** What a suggestion looks through: the installation's models and which of their methods are callable. */
export interface CallableCatalogue {
  models(): ModelEntry[];
  isCallable(model: string, method: string): boolean;
}

/**
 * The callable `<model>/<method>` a mistyped call most likely meant (`user/getlist` →
 * `users/getList`), or undefined when nothing is close. Compared without case, by edit distance
 * (a swap of two letters counts once), within a third of the name's length.
 */
export function suggestCall(catalogue: CallableCatalogue, model: string, method: string): string | undefined {
  const entries = catalogue.models();
  const models = entries.map((entry) => entry.name);
  const modelName = models.find((m) => m.toLowerCase() === model.toLowerCase()) ?? closestName(model, models);
  if (!modelName) return undefined;
  const entry = entries.find((e) => e.name === modelName)!;
  const methods = [...entry.callables.keys()].filter((m) => catalogue.isCallable(modelName, m));
  const methodName = methods.find((m) => m.toLowerCase() === method.toLowerCase()) ?? closestName(method, methods);
  if (!methodName) return undefined;
  const suggestion = `${modelName}/${methodName}`;
  return suggestion === `${model}/${method}` ? undefined : suggestion;
}

/** The candidate nearest to `name`, if near enough to be a typo of it. */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const typed = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  const allowed = Math.max(1, Math.floor(typed.length / 3));
  return best && best.distance <= allowed ? best.name : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
