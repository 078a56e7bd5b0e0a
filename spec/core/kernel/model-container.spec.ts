import { expect } from 'chai';
import { container as rootContainer } from 'tsyringe';
import { callable } from '../../../core/kernel/callable';
import { model } from '../../../core/kernel/model';
import { classEntry } from '../../../core/kernel/model-entry';
import { allModels, findModel, registerModel, resolveModelMethod } from '../../../core/kernel/model-container';

@model('spec_widgets')
class Widgets {
  @callable({ verb: 'GET' })
  async getList() {
    return [];
  }

  async helper() {
    return 'not callable';
  }

  @callable()
  async _secret() {
    return 'hidden even when decorated';
  }

  @callable()
  async install() {
    return 'a lifecycle hook is never callable';
  }

  @callable()
  async uninstall() {
    return 'decorated, but not said to be named like a hook on purpose';
  }

  @callable({ namedLikeHook: true })
  async upgrade() {
    return "an API method of that name, as the managers' upgrade(id)";
  }
}

@model('Spec_Other')
class Other {}

describe('models in the container', () => {
  const fresh = () => {
    const container = rootContainer.createChildContainer();
    registerModel(container, classEntry(Widgets));
    registerModel(container, classEntry(Other));
    return container;
  };

  it('registers each model under its API name and lists all of them', () => {
    const container = fresh();
    expect(findModel(container, 'spec_widgets')?.name).to.equal('spec_widgets');
    expect(allModels(container).map((m) => m.name)).to.deep.equal(['spec_widgets', 'Spec_Other']);
    expect(allModels(rootContainer.createChildContainer())).to.deep.equal([]);
  });

  it('refuses a second model of the same name, in any case', () => {
    expect(() => registerModel(fresh(), classEntry(Widgets))).to.throw(/already registered/);
    @model('SPEC_WIDGETS')
    class Shouting {}
    expect(() => registerModel(fresh(), classEntry(Shouting))).to.throw(/already registered/);
  });

  it('resolves names as PHP does: case-insensitively, to the declared method', () => {
    const container = fresh();
    for (const [m, method] of [
      ['spec_widgets', 'getList'],
      ['SPEC_Widgets', 'GETLIST'],
      ['spec_widgets', 'getlist'],
    ]) {
      const resolution = resolveModelMethod(container, m, method);
      expect(resolution.found && resolution.spec.method).to.equal('getList');
    }
    expect(findModel(container, 'spec_other')?.name).to.equal('Spec_Other');
  });

  it('answers not found for no such model or method, not callable for members that exist but are not callable', () => {
    const container = fresh();
    const reason = (m: string, method: string) => {
      const r = resolveModelMethod(container, m, method);
      return r.found ? 'found' : r.reason;
    };
    expect(reason('nope', 'getList')).to.equal('no-model');
    expect(reason('spec_widgets', 'nothing')).to.equal('no-method');
    expect(reason('spec_widgets', 'helper')).to.equal('not-callable');
    expect(reason('spec_widgets', 'HELPER')).to.equal('not-callable');
    expect(reason('spec_widgets', '_secret')).to.equal('not-callable');
    expect(reason('spec_widgets', 'install')).to.equal('not-callable');
    expect(reason('spec_widgets', 'UNINSTALL')).to.equal('not-callable');
    expect(reason('spec_widgets', 'upgrade')).to.equal('found');
    expect(reason('spec_widgets', 'constructor')).to.equal('not-callable');
    // Every PHP class has these, so the reference answers 403 for them on any model.
    for (const magic of ['__construct', '__CONSTRUCT', '__get', '__toString', '__destruct']) expect(reason('spec_other', magic)).to.equal('not-callable');
    expect(reason('spec_widgets', '__notmagic')).to.equal('no-method');
  });
});
