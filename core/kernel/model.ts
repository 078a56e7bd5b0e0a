import { injectable } from 'tsyringe';
import { FACET_OF_KEY, FACETS_KEY, MODEL_NAME_KEY } from './metadata-keys';

export type ModelClass = new (...args: any[]) => object;

export interface ModelOptions {
  /**
   * Classes declared `@facet(<the same name>)` that carry the rest of the model's API, one concern
   * each (a client's notes, its custom fields). Registration merges them into one model; a method
   * name declared by two of them stops the start (see `classEntry`).
   */
  facets?: readonly ModelClass[];
}

/** Declares a model under its API name (`users`, `invoices`). Models are injectable, one instance per call. */
export function model(name: string, options: ModelOptions = {}) {
  return <T extends ModelClass>(target: T): T => {
    Reflect.defineMetadata(MODEL_NAME_KEY, name, target);
    Reflect.defineMetadata(FACETS_KEY, [...(options.facets ?? [])], target);
    injectable()(target);
    return target;
  };
}

/**
 * Declares a class as one facet of the model `name`: its callable methods are `name/...` methods,
 * listed in the model's `@model(name, { facets })`. A facet is built per call like a model, and is
 * a class of its own (no inheritance between a model and its facets), so a method is found by
 * grepping its name.
 */
export function facet(name: string) {
  return <T extends ModelClass>(target: T): T => {
    Reflect.defineMetadata(FACET_OF_KEY, name, target);
    injectable()(target);
    return target;
  };
}

export function modelNameOf(target: Function): string | undefined {
  return Reflect.getMetadata(MODEL_NAME_KEY, target);
}

export function facetsOf(target: Function): readonly ModelClass[] {
  return Reflect.getOwnMetadata(FACETS_KEY, target) ?? [];
}

export function facetOf(target: Function): string | undefined {
  return Reflect.getOwnMetadata(FACET_OF_KEY, target);
}
