export interface Node {
  readonly name: string;
  readonly depends: readonly string[];
}

export interface Ordered {
  /** Names in an order where every extension comes after what it depends on. */
  readonly order: string[];
  /** Extensions left out, with the reason: a missing dependency, a cycle, or a dependency left out. */
  readonly problems: Map<string, string>;
}

/**
 * Orders extensions by their `depends`. `unavailable` names extensions that exist but cannot load
 * (their reason is already reported), so depending on one is explained as such, not as missing.
 */
export function orderByDependencies(nodes: readonly Node[], unavailable: ReadonlySet<string> = new Set()): Ordered {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const order: string[] = [];
  const problems = new Map<string, string>();
  const state = new Map<string, 'visiting' | 'done'>();

  const visit = (name: string, path: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(name)), name];
      for (const member of cycle) if (!problems.has(member)) problems.set(member, `Dependency cycle: ${cycle.join(' → ')}.`);
      return;
    }
    state.set(name, 'visiting');
    for (const dependency of byName.get(name)!.depends) {
      if (!byName.has(dependency)) {
        problems.set(name, unavailable.has(dependency) ? `It depends on "${dependency}", which failed to load.` : `It depends on "${dependency}", which is not in the extensions directory.`);
        continue;
      }
      visit(dependency, [...path, name]);
      if (problems.has(dependency) && !problems.has(name)) problems.set(name, `It depends on "${dependency}", which cannot be loaded.`);
    }
    state.set(name, 'done');
    if (!problems.has(name)) order.push(name);
  };

  for (const node of [...nodes].sort((a, b) => a.name.localeCompare(b.name))) visit(node.name, []);
  return { order: order.filter((n) => !problems.has(n)), problems };
}
