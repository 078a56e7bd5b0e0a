import { CardFormDeclaration, SettingDeclaration } from '../../core/kernel/extension-catalog';
import { checkCardForm } from './card-form-manifest';
import { HOST_ENTRY } from './capabilities/declared-hosts';
import { ExtensionTask } from '../../core/kernel/extension-catalog';
import { checkEvents, checkTasks } from './subscriptions';

/** A validated `config.json`. Unknown fields (such as the reference's `logo`) are allowed and kept out. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly description: string | null;
  readonly authors: ReadonlyArray<{ name: string; url?: string }>;
  readonly depends: readonly string[];
  readonly currencies: readonly string[];
  readonly settings: Readonly<Record<string, SettingDeclaration>>;
  /** Modules only: the fields of a module row (a server), declared as settings are. */
  readonly rowFields: Readonly<Record<string, SettingDeclaration>>;
  readonly signupUrl: string | null;
  /** Capabilities: the core methods it calls (`clients.get`), the hosts (and ports) it sends HTTP to, the tables it owns. */
  readonly uses: readonly string[];
  readonly hosts: readonly string[];
  readonly tables: readonly string[];
  /** Event types its handlers receive, and the tasks it schedules (subscriptions.ts). */
  readonly events: readonly string[];
  readonly tasks: readonly ExtensionTask[];
  /** A merchant gateway's card form drawn by the processor's script in the browser (card-form-manifest.ts). */
  readonly cardForm: CardFormDeclaration | null;
}

export type ManifestCheck = { ok: true; manifest: Manifest } | { ok: false; problems: string[] };

/** Extension and setting names: they become API names and column-safe keys. */
export const NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
const VERSION = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$/;
const CURRENCY = /^[A-Z]{3}$/;
/** A core model's method: `clients.get`, `transactions.add` (extension models are called with ctx.call). */
const CORE_METHOD = /^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)?\.[A-Za-z][A-Za-z0-9_]*$/;

/** Checks a parsed `config.json`, listing every problem so an author fixes them in one go. */
export function checkManifest(raw: unknown, isGateway: boolean): ManifestCheck {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, problems: ['config.json must hold a JSON object.'] };
  const m = raw as Record<string, unknown>;
  const problems: string[] = [];
  const text = (key: string, required: boolean): string | null => {
    const value = m[key];
    if (value === undefined || value === null) {
      if (required) problems.push(`"${key}" is required.`);
      return null;
    }
    if (typeof value !== 'string' || (required && !value.trim())) problems.push(`"${key}" must be ${required ? 'a non-empty' : 'a'} string.`);
    return typeof value === 'string' ? value : null;
  };
  const name = text('name', true);
  const version = text('version', true);
  if (version && !VERSION.test(version)) problems.push(`"version" must look like "1.0.0", not "${version}".`);
  const description = text('description', false);
  const signupUrl = text('signup_url', false);
  const authors = listOf(m.authors, 'authors', problems, (a, i) => {
    if (!a || typeof a !== 'object' || typeof (a as any).name !== 'string') return void problems.push(`"authors[${i}]" must be an object with a "name".`);
    const { name: author, url } = a as { name: string; url?: unknown };
    if (url !== undefined && typeof url !== 'string') return void problems.push(`"authors[${i}].url" must be a string.`);
    return url === undefined ? { name: author } : { name: author, url };
  });
  const depends = listOf(m.depends, 'depends', problems, (d, i) =>
    typeof d === 'string' && NAME_PATTERN.test(d) ? d : void problems.push(`"depends[${i}]" must be an extension's directory name (lowercase letters, digits, _).`),
  );
  const currencies = listOf(m.currencies, 'currencies', problems, (c, i) =>
    typeof c === 'string' && CURRENCY.test(c) ? c : void problems.push(`"currencies[${i}]" must be an ISO 4217 code such as "USD".`),
  );
  if (isGateway && currencies.length === 0 && m.currencies === undefined) problems.push('"currencies" is required for a gateway: list the ISO 4217 codes it accepts.');
  if (!isGateway && m.currencies !== undefined) problems.push('"currencies" is only for gateways.');
  const settings = checkSettings(m.settings, problems, 'settings');
  const rowFields = checkSettings(m.row_fields, problems, 'row_fields');
  const uses = listOf(m.uses, 'uses', problems, (u, i) =>
    typeof u === 'string' && CORE_METHOD.test(u) ? u : void problems.push(`"uses[${i}]" must name a method as "model.method", such as "clients.get" (another extension\'s: "extension.model.method").`),
  );
  const hosts = listOf(m.hosts, 'hosts', problems, (h, i) =>
    typeof h === 'string' && HOST_ENTRY.test(h) && Number(h.split(':')[1] ?? 1) <= 65535
      ? h.toLowerCase()
      : void problems.push(`"hosts[${i}]" must be a host name such as "api.stripe.com", with a port when not the scheme's own ("api.example.com:8443"); no scheme or path.`),
  );
  const tables = listOf(m.tables, 'tables', problems, (t, i) =>
    typeof t === 'string' && NAME_PATTERN.test(t) ? t : void problems.push(`"tables[${i}]" must be a table name: lowercase letters, digits and _, starting with a letter.`),
  );
  const events = checkEvents(m.events, problems);
  const tasks = checkTasks(m.tasks, problems);
  const cardForm = checkCardForm(m.card_form, isGateway, settings, problems);
  if (problems.length) return { ok: false, problems };
  return { ok: true, manifest: { name: name!, version: version!, description, authors, depends, currencies, settings, rowFields, signupUrl, uses, hosts, tables, events, tasks, cardForm } };
}

function listOf<T>(value: unknown, key: string, problems: string[], item: (v: unknown, i: number) => T | undefined): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(`"${key}" must be a list.`);
    return [];
  }
  return value.map(item).filter((v): v is T => v !== undefined);
}

function checkSettings(value: unknown, problems: string[], field: 'settings' | 'row_fields'): Record<string, SettingDeclaration> {
  if (value === undefined) return {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`"${field}" must be an object: ${field === 'settings' ? 'setting' : 'field'} name → { "label", "secret", "required" }.`);
    return {};
  }
  const settings: Record<string, SettingDeclaration> = {};
  for (const [key, declared] of Object.entries(value)) {
    const d = declared as Record<string, unknown>;
    if (!NAME_PATTERN.test(key)) problems.push(`"${field}.${key}": ${field === 'settings' ? 'setting' : 'field'} names are lowercase letters, digits and _.`);
    else if (!d || typeof d !== 'object' || Array.isArray(d)) problems.push(`"${field}.${key}" must be an object.`);
    else if ((d.label !== undefined && typeof d.label !== 'string') || ['secret', 'required'].some((f) => d[f] !== undefined && typeof d[f] !== 'boolean')) {
      problems.push(`"${field}.${key}": "label" is a string, "secret" and "required" are true or false.`);
    } else settings[key] = { label: d.label as string | undefined, secret: d.secret === true, required: d.required === true };
  }
  return settings;
}
