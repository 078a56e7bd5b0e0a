import { Installation } from '../core/installation';
import { CallAudit } from '../core/trust/call-audit';
import { CallGuard } from '../core/trust/call-guard';

/**
 * What the composition root (assemble-installation.ts) made for an installation that its
 * transports use beside the call path: the trust guard (credentials, lock-outs, rates, before a
 * call enters the path) and the audit writer (the admin area's page actions).
 */
export class Assembled {
  constructor(
    readonly guard: CallGuard,
    readonly audit: CallAudit,
  ) {}
}

/** The installation's assembly; a clear error for one opened without it (its calls would run without their hooks). */
export function assembled(installation: Installation): Assembled {
  if (!installation.container.isRegistered(Assembled)) {
    throw new Error('This installation was opened without its call hooks (credential scope, audit, idempotency): open it with assembleInstallation() from host/assemble-installation.ts.');
  }
  return installation.container.resolve(Assembled);
}
