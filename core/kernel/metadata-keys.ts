/** Every reflect-metadata key Tally defines, in one place (as tsyringe keeps its own). */
export const MODEL_NAME_KEY = Symbol.for('tally:model-name');
export const CALLABLES_KEY = Symbol.for('tally:callables');
