import { CardFormDeclaration, SettingDeclaration } from '../../core/kernel/extension-catalog';

const LIBRARIES: ReadonlySet<string> = new Set(['stripe-js']);
/** An https:// origin: a host name with an optional port, nothing after it (it goes into a Content-Security-Policy as it is). */
const ORIGIN = /^https:\/\/[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+(?::[1-9]\d{0,4})?$/;

/**
 * Checks a gateway manifest's `card_form`: { library, script, publishable_key_setting,
 * script_origins, frame_origins, connect_origins }. The script must be https:// from one of the
 * script origins, and the key setting one the manifest declares and does not keep secret: the page
 * hands it to every visitor's browser. Problems are pushed in the manifest checker's words.
 */
export function checkCardForm(value: unknown, isGateway: boolean, settings: Readonly<Record<string, SettingDeclaration>>, problems: string[]): CardFormDeclaration | null {
  if (value === undefined) return null;
  if (!isGateway) {
    problems.push('"card_form" is only for merchant gateways.');
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    problems.push('"card_form" must be an object: { "library", "script", "publishable_key_setting", "script_origins", "frame_origins", "connect_origins" }.');
    return null;
  }
  const form = value as Record<string, unknown>;
  const before = problems.length;
  const origins = (key: string): string[] => {
    const list = form[key] ?? [];
    if (!Array.isArray(list) || !list.every((o) => typeof o === 'string' && ORIGIN.test(o))) {
      problems.push(`"card_form.${key}" must be a list of https:// origins such as "https://js.stripe.com" (no path).`);
      return [];
    }
    return list as string[];
  };
  const library = form.library;
  if (typeof library !== 'string' || !LIBRARIES.has(library)) problems.push(`"card_form.library" must be one the client area drives: ${[...LIBRARIES].join(', ')}.`);
  const scriptOrigins = origins('script_origins');
  const frameOrigins = origins('frame_origins');
  const connectOrigins = origins('connect_origins');
  const script = typeof form.script === 'string' ? form.script : '';
  let scriptUrl: URL | null = null;
  try {
    scriptUrl = new URL(script);
  } catch {
    scriptUrl = null;
  }
  if (!scriptUrl || scriptUrl.protocol !== 'https:' || !scriptOrigins.includes(scriptUrl.origin)) problems.push('"card_form.script" must be an https:// URL on one of "card_form.script_origins".');
  const keySetting = form.publishable_key_setting;
  if (typeof keySetting !== 'string' || !settings[keySetting] || settings[keySetting].secret) {
    problems.push('"card_form.publishable_key_setting" must name a setting the manifest declares that is not secret (the browser is given it).');
  }
  if (problems.length > before) return null;
  return { library: library as CardFormDeclaration['library'], script, publishableKeySetting: keySetting as string, scriptOrigins, frameOrigins, connectOrigins };
}
