import { expect } from 'chai';
import { container as rootContainer, inject, injectable } from 'tsyringe';
import { CallContext } from '../../../core/kernel/call-context';
import { CallScope } from '../../../core/kernel/call-scope';

class Service {}

@injectable()
class Helper {
  constructor(
    readonly ctx: CallContext,
    readonly service: Service,
  ) {}
}

@injectable()
class Model {
  constructor(
    readonly ctx: CallContext,
    readonly helper: Helper,
    readonly service: Service,
  ) {}
}

@injectable()
class WithToken {
  constructor(@inject('greeting') readonly greeting: string) {}
}

class NoParameters {}

class Undecorated {
  constructor(readonly value: string) {}
}

/** A call's scope builds what a tsyringe child container holding the call's context built. */
describe('CallScope', () => {
  const services = rootContainer.createChildContainer();
  const service = new Service();
  services.registerInstance(Service, service);
  services.registerInstance('greeting', 'hello');
  const context = (companyId: number) => new CallContext(null as never, companyId, 'UTC', 'key', 'spec');

  it("builds a model and what it injects fresh for each resolve, with the call's context and the installation's services", () => {
    const ctx = context(7);
    const scope = new CallScope(services, ctx);
    const model = scope.resolve(Model);
    expect(model.ctx).to.equal(ctx);
    expect(model.helper.ctx).to.equal(ctx);
    expect(model.service).to.equal(service).and.to.equal(model.helper.service);
    expect(scope.resolve(Model)).not.to.equal(model);
    expect(new CallScope(services, context(8)).resolve(Model).helper.ctx.companyId).to.equal(8);
  });

  it('leaves @inject tokens to tsyringe, and builds or refuses what tsyringe builds or refuses', () => {
    const scope = new CallScope(services, context(1));
    expect(scope.resolve(WithToken).greeting).to.equal('hello');
    expect(scope.resolve(NoParameters)).to.be.instanceOf(NoParameters);
    expect(scope.resolve<string>('greeting')).to.equal('hello');
    expect(() => scope.resolve(Undecorated)).to.throw(/TypeInfo not known/);
    const child = services.createChildContainer();
    child.registerInstance(CallContext, context(1));
    expect(() => child.resolve(Undecorated)).to.throw(/TypeInfo not known/);
  });
});
