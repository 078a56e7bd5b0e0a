import { CallHooks } from '../core/call-hooks';
import { Installation, InstallationOptions } from '../core/installation';
import { CallAudit } from '../core/trust/call-audit';
import { CallGuard } from '../core/trust/call-guard';
import { idempotentClaim } from '../core/trust/idempotent-claim';
import { staffPermissions } from '../core/trust/staff-permissions';
import { TrustPolicy } from '../core/identity/policy';
import { EventConsumers } from '../core/events/consumer-registry';
import { OutboxBell } from '../core/events/outbox-bell';
import { Assembled } from './assembled';
import { PluginEventConsumer } from './extensions/plugin-event-consumer';
import { declaredUses, loadExtensions, LoadOptions } from './extensions/load-extensions';
import { managersOutsideTransactions } from './extensions/managers-outside-transactions';
import { sandboxLimits } from './extensions/sandbox-limits';
import { clientScope } from '../core/trust/client-scope';
import { moduleErrorNotices } from '../core/trust/module-error-notices';

export interface AssemblyOptions extends Omit<InstallationOptions, 'hooks' | 'registering'> {
  /** Abuse limits and browser rules; defaults to the configuration. */
  trust?: TrustPolicy;
  /** Loads the extensions (from `extensions.dir`, or TALLY_EXTENSIONS_DIR); none are loaded without it. */
  extensions?: LoadOptions;
  /** Adds further hooks (the events outbox, a spec's probe) after the installation's own, before it is sealed. */
  hooks?: (hooks: CallHooks, installation: Installation) => void;
}

/**
 * The composition root: the one place an installation is assembled, used by the server, the CLI
 * (and so the admin area it serves) and the specs. It opens the installation with the call path's
 * hooks, registered here by stage name and nowhere else:
 *
 *   authorise     the credential's scope (CallGuard), a client area caller's reach (clientScope),
 *                 a staff member's group (staff-permissions),
 *                 an extension's declared `uses`
 *   claim         an API write's Idempotency-Key
 *   beforeCommit  the audit row of a successful write, in its transaction
 *   afterCommit   the outbox's bell: this process's delivery worker looks at once
 *   answered      the audit row of any other write, once answered; the staff told of a
 *                 module's failure (module-error-notices)
 *
 * and the event consumers the outbox delivers to besides webhooks (plugins' handlers).
 *
 * then seals them: a hook added later, or at an unknown stage, is refused with a clear error.
 */
export async function assembleInstallation(options: AssemblyOptions = {}): Promise<Installation> {
  const { trust, extensions, hooks: moreHooks, ...opening } = options;
  const hooks = new CallHooks();
  // Extension managers run extension code: with extensions loaded they are registered to run
  // outside any transaction (managers-outside-transactions.ts).
  const registering = extensions ? managersOutsideTransactions(sandboxLimits(extensions.limits).deadlineMs) : undefined;
  const installation = await Installation.open({ ...opening, hooks, registering });
  try {
    const policy = trust ?? new TrustPolicy();
    const guard = new CallGuard(installation.db, installation.credentials, policy);
    const audit = new CallAudit(guard.audit);
    // One policy for the API's checks and the models' (users/auth lock-outs).
    installation.provide(TrustPolicy, policy);
    installation.provide(Assembled, new Assembled(guard, audit));
    const consumers = new EventConsumers();
    const bell = new OutboxBell();
    installation.provide(EventConsumers, consumers);
    installation.provide(OutboxBell, bell);
    hooks.add('authorise', guard.scopeCheck);
    hooks.add('authorise', clientScope(installation.db));
    hooks.add('authorise', staffPermissions(installation.db));
    if (extensions) {
      hooks.add('authorise', declaredUses(await loadExtensions(installation, extensions)));
      consumers.add(installation.container.resolve(PluginEventConsumer));
    }
    hooks.add('claim', idempotentClaim(guard.idempotency));
    hooks.add('beforeCommit', audit.beforeCommit);
    hooks.add('afterCommit', bell.ring);
    hooks.add('answered', audit.answered);
    hooks.add('answered', moduleErrorNotices(installation.db));
    moreHooks?.(hooks, installation);
    hooks.seal();
    return installation;
  } catch (error) {
    await installation.close().catch(() => undefined);
    throw error;
  }
}
