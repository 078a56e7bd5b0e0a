import { DependencyContainer, InjectionToken } from 'tsyringe';
import { CallContext } from './call-context';

type Constructor<T> = new (...args: any[]) => T;

/** tsyringe's metadata for `@inject(token)` on a constructor parameter. */
const INJECTION_TOKENS = 'injectionTokens';

/**
 * How one call's models are built: the call's CallContext over the installation's services. A
 * model (or a helper it injects) is constructed fresh for the call from its constructor's
 * parameter types, read once per class; registered services come from the installation's
 * container. This replaces a tsyringe child container per call, which cost more than the model
 * (a container, its registry maps and a resolution context on every call): what is built is the
 * same, one instance per resolve, as tsyringe builds an unregistered class.
 */
export class CallScope {
  constructor(
    private readonly services: DependencyContainer,
    readonly context: CallContext,
  ) {}

  resolve<T>(token: InjectionToken<T>): T {
    if (token === CallContext) return this.context as T;
    if (typeof token !== 'function' || this.services.isRegistered(token, true)) return this.services.resolve(token);
    const plan = constructorPlan(token);
    if (!plan) return this.asContainer().resolve(token);
    const target = token as Constructor<T>;
    return new target(...plan.map((parameter) => this.resolve(parameter)));
  }

  /**
   * What tsyringe would resolve in: anything the plan does not cover (an `@inject` token, a class
   * tsyringe cannot build) is left to it, so it builds or refuses it exactly as before.
   */
  private asContainer(): DependencyContainer {
    const scope = this.services.createChildContainer();
    scope.registerInstance(CallContext, this.context);
    return scope;
  }
}

/** null: leave the class to tsyringe. */
type Plan = readonly InjectionToken<unknown>[] | null;

const plans = new WeakMap<Function, Plan>();

/**
 * The constructor's parameter types as the compiler recorded them (the @model/@injectable
 * decorators make it record them); a class without parameters needs none. tsyringe reads the same
 * metadata.
 */
function constructorPlan(target: Function): Plan {
  let plan = plans.get(target);
  if (plan === undefined) {
    const types: InjectionToken<unknown>[] | undefined = Reflect.getMetadata('design:paramtypes', target);
    const custom = Reflect.getOwnMetadata(INJECTION_TOKENS, target) as object | undefined;
    if (custom && Object.keys(custom).length) plan = null;
    else plan = types ?? (target.length === 0 ? [] : null);
    plans.set(target, plan);
  }
  return plan;
}
