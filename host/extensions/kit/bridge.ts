/**
 * The only way code in the sandbox reaches the host. The host installs two references on the
 * context's global object before any extension code runs; this module (evaluated first in every
 * bundle) captures them and removes them from the global scope. Nothing the host receives through
 * them is trusted: it checks every message, whoever sent it.
 */

/** The part of isolated-vm's Reference the sandbox uses (the host passes real ones). */
interface HostReference {
  apply(receiver: undefined, args: unknown[], options: object): Promise<unknown>;
  applyIgnored(receiver: undefined, args: unknown[], options: object): void;
  applySync(receiver: undefined, args: unknown[], options: object): unknown;
}

/** What the host tells the sandbox when it creates a context (plain data). */
export interface SandboxSetup {
  readonly dialect: 'sqlite' | 'postgres';
  readonly resultBytes: number;
  readonly logLinesPerSecond: number;
}

const scope = globalThis as unknown as Record<string, any>;
const host: HostReference | undefined = scope.__tallyHost;
const random: HostReference | undefined = scope.__tallyRandom;
export const setup: SandboxSetup = scope.__tallySetup ?? { dialect: 'sqlite', resultBytes: 1 << 20, logLinesPerSecond: 50 };
delete scope.__tallyHost;
delete scope.__tallyRandom;
delete scope.__tallySetup;

/** A failure as it crosses the boundary: a catalogued API error, or anything else (a 500). */
export type WireError = { tally: true; code: string; errors?: unknown; response?: string } | { tally: false; message: string };
export type HostAnswer = { ok: true; value: unknown } | { ok: false; error: WireError };

/** Asks the host for something during the call identified by `token`; the host always answers. */
export async function askHost(token: string, request: object): Promise<HostAnswer> {
  if (!host) throw new Error('This code runs outside the Tally sandbox.');
  return (await host.apply(undefined, [token, request], { arguments: { copy: true }, result: { promise: true, copy: true } })) as HostAnswer;
}

/** Tells the host something that needs no answer (a log line). */
export function tellHost(token: string, request: object): void {
  host?.applyIgnored(undefined, [token, request], { arguments: { copy: true } });
}

/** Cryptographically random bytes from the host (the sandbox has no entropy source of its own). */
export function randomFromHost(size: number): Uint8Array {
  if (!random) throw new Error('This code runs outside the Tally sandbox.');
  return random.applySync(undefined, [size], { result: { copy: true } }) as Uint8Array;
}
