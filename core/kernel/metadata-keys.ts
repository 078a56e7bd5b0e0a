/** Every reflect-metadata key Tally defines, in one place (as tsyringe keeps its own). */
export const MODEL_NAME_KEY = Symbol.for('tally:model-name');
export const CALLABLES_KEY = Symbol.for('tally:callables');
/** On a model class: the facet classes that carry the rest of its API. */
export const FACETS_KEY = Symbol.for('tally:facets');
/** On a facet class: the API name of the model it belongs to. */
export const FACET_OF_KEY = Symbol.for('tally:facet-of');
