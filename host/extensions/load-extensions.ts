import type { StageHooks } from '../../core/call-hooks';
import { Installation } from '../../core/installation';
import { CallContext } from '../../core/kernel/call-context';
import { ExtensionCatalog, ExtensionInfo } from '../../core/kernel/extension-catalog';
import { createLogger, Logger } from '../logger';
import { orderByDependencies } from './dependency-order';
import { Candidate, discover } from './discovery';
import { defaultExtensionsDir } from './entry-file';
import { ExtensionSandbox } from './sandbox/extension-sandbox';
import { bundleExtension } from './sandbox/bundle';
import { tableHolders, tableProblems } from './table-ownership';
import { subscriptionProblem } from './subscriptions';
import { PluginEventConsumer } from './plugin-event-consumer';
import { assertDeclared } from './capabilities/declared-methods';
import { CatalogEntry, HostCatalog } from './host-catalog';
import { serveRequests } from './host-requests';
import { Loaded } from './protocol';
import { proxyEntry, ProxyWiring } from './proxy-entry';
import { SandboxLimits, sandboxLimits } from './sandbox-limits';

export interface LoadOptions {
  /** Defaults to TALLY_EXTENSIONS_DIR, then the project's `extensions/`. */
  dir?: string;
  logger?: Logger;
  limits?: Partial<SandboxLimits>;
  /** How long a company's enabled extensions are cached (ms); as the installation's other caches. */
  cacheTtlMs?: number;
}

/**
 * Find → validate → bundle and load each in its own sandbox → order by dependencies → register its models as
 * `<name>.<model>`. Whatever cannot be loaded is logged and listed with its reason by the
 * managers; the host serves regardless. Sandboxes stop when the installation closes.
 */
export async function loadExtensions(installation: Installation, options: LoadOptions = {}): Promise<HostCatalog> {
  const logger = options.logger ?? createLogger();
  const limits = sandboxLimits(options.limits);
  // Never silent: payments would go to a stand-in server instead of the processor.
  if (limits.testHosts.size)
    logger.warn({ testHosts: Object.fromEntries(limits.testHosts) }, "TALLY_GATEWAY_TEST_HOSTS is on: extensions' HTTP to these hosts goes to stand-in servers (for testing only)");
  const candidates = await discover(options.dir ?? defaultExtensionsDir());
  const problems = new Map<Candidate, string>(candidates.filter((c) => c.problem).map((c) => [c, c.problem!]));
  for (const [name, same] of groupBy(candidates, (c) => c.name)) {
    if (same.length > 1) for (const c of same) problems.set(c, `The name "${name}" is used by more than one extension (${same.map((s) => s.where).join(', ')}); rename all but one.`);
  }

  for (const [c, problem] of await tableProblems(
    candidates.filter((c) => !problems.has(c)),
    await tableHolders(installation.db),
  ))
    problems.set(c, problem);

  const started = new Map<Candidate, { worker: ExtensionSandbox; loaded: Loaded }>();
  await Promise.all(
    candidates
      .filter((c) => !problems.has(c))
      .map(async (c) => {
        const bundle = bundleExtension(c.entry!);
        bundle.catch(() => undefined);
        const worker = new ExtensionSandbox({ extension: c.name, entry: c.entry!, dialect: installation.connection.dialect }, limits, logger, bundle);
        try {
          started.set(c, { worker, loaded: await worker.start() });
        } catch (error) {
          problems.set(c, (error as Error).message);
          await worker.close();
        }
      }),
  );

  // Its event handlers and task functions must be those its manifest shows the installer.
  for (const [c, { worker, loaded }] of [...started]) {
    const problem = subscriptionProblem(c.manifest!, loaded);
    if (!problem) continue;
    problems.set(c, problem);
    started.delete(c);
    await worker.close();
  }

  // Dependencies are checked after loading, so depending on an extension that failed to load is
  // reported as that, and never loaded either.
  const ready = [...started.keys()];
  const ordered = orderByDependencies(
    ready.map((c) => ({ name: c.name, depends: c.manifest!.depends })),
    new Set(candidates.filter((c) => problems.has(c)).map((c) => c.name)),
  );
  for (const c of ready) {
    const problem = ordered.problems.get(c.name);
    if (problem) problems.set(c, problem);
  }

  const entries: CatalogEntry[] = [];
  let catalog: HostCatalog | undefined;
  const wiring = (info: ExtensionInfo, sandbox: ExtensionSandbox): ProxyWiring => ({
    sandbox,
    dialect: installation.connection.dialect,
    deadlineMs: limits.deadlineMs,
    enabledFor: (companyId, scope) => catalog!.enabledFor(companyId, info.type, info.name, scope.resolve(CallContext).db),
    serve: (ctx, session) => serveRequests(installation, info, ctx, session, limits),
  });
  for (const name of ordered.order) {
    const c = ready.find((r) => r.name === name)!;
    const { worker, loaded } = started.get(c)!;
    const info = describe(
      c,
      null,
      loaded.models.map((m) => `${c.name}.${m.model}`),
    );
    // All of an extension's models or none: names are checked before any is registered.
    const proxies = loaded.models.map((model) => proxyEntry(info, model, wiring(info, worker)));
    const taken = proxies.find((p, i) => installation.model(p.name) || proxies.findIndex((q) => q.name.toLowerCase() === p.name.toLowerCase()) !== i);
    if (taken) {
      problems.set(c, `A model named "${taken.name}" is already registered`);
      continue;
    }
    for (const proxy of proxies) installation.addModel(proxy);
    entries.push({ info, worker, migrations: loaded.migrations });
  }
  for (const [c, reason] of problems) {
    entries.push({ info: describe(c, reason, []), migrations: [] });
    logger.warn({ extension: c.where, reason }, 'extension not loaded');
    await started.get(c)?.worker.close();
  }
  catalog = new HostCatalog(installation, entries, options.cacheTtlMs ?? 1000, limits);
  installation.provide(ExtensionCatalog, catalog);
  // Plugin handlers, for the outbox to deliver events to (core/events/event-consumers.ts).
  installation.provide(PluginEventConsumer, new PluginEventConsumer(catalog));
  installation.onClose(() => catalog!.close());
  return catalog;
}

/**
 * The call path's authorise hook that checks every call an extension makes against what its
 * manifest `uses` (registered by the composition root, host/assemble-installation.ts).
 */
export function declaredUses(catalog: HostCatalog): StageHooks['authorise'] {
  const byName = new Map(catalog.list().map((info) => [info.name, info]));
  return ({ via, request }) => {
    const extension = via === 'extension' ? request.within?.extension : undefined;
    if (extension !== undefined) assertDeclared(byName.get(extension), request.model, request.method);
  };
}

function describe(c: Candidate, error: string | null, models: string[]): ExtensionInfo {
  const m = c.manifest;
  return {
    type: c.type,
    name: c.name,
    kind: c.kind,
    title: m?.name ?? null,
    version: m?.version ?? null,
    description: m?.description ?? null,
    authors: m?.authors ?? [],
    depends: m?.depends ?? [],
    currencies: m?.currencies ?? [],
    settings: m?.settings ?? {},
    rowFields: m?.rowFields ?? {},
    cardForm: m?.cardForm ?? null,
    capabilities: { uses: m?.uses ?? [], hosts: m?.hosts ?? [], tables: m?.tables ?? [], events: m?.events ?? [], tasks: m?.tasks ?? [] },
    models,
    loaded: error === null,
    error,
    restarts: 0,
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
