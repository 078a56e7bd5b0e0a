import { injectable } from 'tsyringe';
import { MODEL_NAME_KEY } from './metadata-keys';

type Constructor = new (...args: any[]) => object;

/** Declares a model under its API name (`users`, `invoices`). Models are injectable, one instance per call. */
export function model(name: string) {
  return <T extends Constructor>(target: T): T => {
    Reflect.defineMetadata(MODEL_NAME_KEY, name, target);
    injectable()(target);
    return target;
  };
}

export function modelNameOf(target: Function): string | undefined {
  return Reflect.getMetadata(MODEL_NAME_KEY, target);
}
