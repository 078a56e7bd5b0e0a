import { mapOf, string } from '../kernel/shape';

/** The answers of settings/* (see `@callable({ returns })` in settings.ts): values are text. */
export const SETTING_VALUE = string({ description: 'The value as text, e.g. `true`, `UTC`, `INV-{num}`.' });

export const SETTING_VALUES = mapOf(SETTING_VALUE, { description: 'Setting name → value, defaults included; secret settings are never listed.' });
