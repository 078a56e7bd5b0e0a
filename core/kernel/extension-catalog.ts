import { CallContext } from './call-context';

export type ExtensionType = 'plugin' | 'module' | 'gateway';
export const EXTENSION_TYPES: readonly ExtensionType[] = ['plugin', 'module', 'gateway'];

/** A setting an extension's manifest declares; secret ones are stored with systemEncrypt. */
export interface SettingDeclaration {
  readonly label?: string;
  readonly secret?: boolean;
  readonly required?: boolean;
}

/**
 * A merchant gateway's card form that runs in the payer's browser (the manifest's `card_form`):
 * the processor's script draws the card fields in its own frame and answers a token, so the
 * client area posts only that token to Tally (accounts/addCc vars[token]). `library` names the
 * client area's driver for the script's API; the origins are all the page's policy lets in.
 */
export interface CardFormDeclaration {
  /** The client area's driver for the processor's script: `stripe-js` (Stripe(publishable key).elements(), createPaymentMethod). */
  readonly library: 'stripe-js';
  /** The script's https:// URL, loaded as it is served (Stripe.js must come from js.stripe.com). */
  readonly script: string;
  /** The gateway's setting that holds the publishable key the script is given (never a secret one). */
  readonly publishableKeySetting: string;
  /** https:// origins the page may load scripts from, frame, and connect to: exactly these, nothing else. */
  readonly scriptOrigins: readonly string[];
  readonly frameOrigins: readonly string[];
  readonly connectOrigins: readonly string[];
}

/** What an extension may reach beyond its own code; shown to the installer before installing. */
export interface ExtensionCapabilities {
  /** Core (or other extensions') methods it calls as the calling company: `clients.get`. */
  readonly uses: readonly string[];
  /** Hosts it sends HTTP requests to: `api.example.com`. */
  readonly hosts: readonly string[];
  /** Tables its migrations create and its queries use; every row carries its company. */
  readonly tables: readonly string[];
  /** Event types its handlers receive after they happen in an installing company: `Services.suspend`. */
  readonly events: readonly string[];
  /** Tasks the automation scheduler runs for each installing company, unattended. */
  readonly tasks: readonly ExtensionTask[];
}

/** When a task runs: every N minutes, or once a day at the company's local HH:MM. */
export type TaskSchedule = { readonly every: number; readonly dailyAt?: undefined } | { readonly dailyAt: string; readonly every?: undefined };

/** A task an extension's manifest declares: `schedule` as written ("every 15 minutes", "daily at 03:00"). */
export type ExtensionTask = { readonly name: string; readonly schedule: string } & TaskSchedule;

/**
 * Why the runtime could not install or upgrade an extension, in words the installer can act on (a
 * migration touching a table the manifest does not declare, a hook past its deadline, a table
 * another installed extension owns): the managers answer it as a 400, and the install keeps nothing.
 */
export class InstallRefused extends Error {
  override name = 'InstallRefused';
}

/** What the host knows of one discovered extension, loaded or not. */
export interface ExtensionInfo {
  readonly type: ExtensionType;
  /** The directory name: the extension's identity and the prefix of its models (`<name>.<model>`). */
  readonly name: string;
  /** Gateways only: `merchant` or `nonmerchant`. */
  readonly kind: 'merchant' | 'nonmerchant' | null;
  /** The manifest's display name. */
  readonly title: string | null;
  readonly version: string | null;
  readonly description: string | null;
  readonly authors: ReadonlyArray<{ name: string; url?: string }>;
  readonly depends: readonly string[];
  readonly currencies: readonly string[];
  readonly settings: Readonly<Record<string, SettingDeclaration>>;
  /** Modules: the fields of a module row (module_manager/addRow), declared in the manifest's `row_fields`. */
  readonly rowFields: Readonly<Record<string, SettingDeclaration>>;
  /** Merchant gateways: the card form the processor's script draws in the payer's browser, when it has one. */
  readonly cardForm?: CardFormDeclaration | null;
  /** What it asks for (its manifest's capabilities): methods it calls, hosts it sends HTTP to, tables it owns. */
  readonly capabilities: ExtensionCapabilities;
  /** API names of its models, `<name>.<model>`. */
  readonly models: readonly string[];
  /** False when it failed to load; `error` says why. */
  readonly loaded: boolean;
  readonly error: string | null;
  /** How often its worker has been restarted after a crash or a blown deadline. */
  readonly restarts: number;
}

/**
 * The extension runtime as the core sees it. Core never imports the host, so the managers talk
 * to this class; the host registers its implementation in the installation's container. Without
 * a host (a command that loads no extensions) tsyringe constructs this class itself, which knows
 * of no extension.
 */
export class ExtensionCatalog {
  list(): readonly ExtensionInfo[] {
    return [];
  }

  find(type: ExtensionType, name: string): ExtensionInfo | undefined {
    return this.list().find((e) => e.type === type && e.name === name);
  }

  /** Runs the extension's pending migrations and its install hook inside the call's transaction. */
  async install(type: ExtensionType, name: string, _ctx: CallContext): Promise<void> {
    throw new Error(`No extension runtime is loaded, so the ${type} ${name} cannot be installed.`);
  }

  /** Runs the uninstall hook; when `dropTables`, reverses its migrations (the last company removed it). */
  async uninstall(type: ExtensionType, name: string, _ctx: CallContext, _dropTables: boolean): Promise<void> {
    throw new Error(`No extension runtime is loaded, so the ${type} ${name} cannot be uninstalled.`);
  }

  /**
   * Runs the extension's migrations not yet run (once for the installation), then its upgrade hook
   * with the company's recorded version and the one in the directory, inside the call's transaction.
   */
  async upgrade(type: ExtensionType, name: string, _ctx: CallContext, _from: string, _to: string): Promise<void> {
    throw new Error(`No extension runtime is loaded, so the ${type} ${name} cannot be upgraded.`);
  }

  /** Its migrations that have not run yet: a new version's, which the next upgrade (or install) runs. */
  async pendingMigrations(_type: ExtensionType, _name: string, _ctx: CallContext): Promise<string[]> {
    return [];
  }

  /**
   * Runs a task its manifest declares as `companyId`, for its due time (UTC): rejects with what the
   * host can say of a failure (a deadline, a limit; not the text the extension threw).
   */
  async runScheduled(type: ExtensionType, name: string, _companyId: number, task: string, _due: string): Promise<void> {
    throw new Error(`No extension runtime is loaded, so the task ${task} of the ${type} ${name} cannot run.`);
  }

  /** Drops what the runtime remembers about a company's installed extensions (after a change). */
  forget(_companyId: number): void {}
}

/** How a task is named in the run log, `tally automation` and extension_tasks: `<extension>.<task>`. */
export const taskName = (extension: string, task: string) => `${extension}.${task}`;
