import { DependencyContainer } from 'tsyringe';
import { CallContext } from '../../core/kernel/call-context';
import { ModelEntry } from '../../core/kernel/model-entry';
import { ExtensionInfo } from '../../core/models/extension-managers/catalog';
import { ExtensionWorker } from './extension-worker';
import { HostRequest, ModelDescriptor } from './protocol';
import { callInfo } from './host-requests';

export interface ProxyWiring {
  readonly worker: ExtensionWorker;
  /** Whether the company has the extension installed and enabled. */
  enabledFor(companyId: number, scope: DependencyContainer): Promise<boolean>;
  /** How the host answers the worker's requests during this call. */
  serve(ctx: CallContext): (request: HostRequest) => Promise<unknown>;
}

/**
 * `<extension>.<model>` in the installation's container: the declared callables bound and checked on the
 * host as for a core model, then the call forwarded into the extension's worker.
 */
export function proxyEntry(extension: ExtensionInfo, descriptor: ModelDescriptor, wiring: ProxyWiring): ModelEntry {
  return {
    name: `${extension.name}.${descriptor.model}`,
    callables: new Map(descriptor.callables.map((spec) => [spec.method, spec])),
    members: new Set(descriptor.members),
    availableTo: (companyId, scope) => wiring.enabledFor(companyId, scope),
    invoke(method, args, scope) {
      const ctx = scope.resolve(CallContext);
      return wiring.worker.run({ kind: 'call', model: descriptor.model, method, args }, callInfo(ctx), wiring.serve(ctx));
    },
  };
}
