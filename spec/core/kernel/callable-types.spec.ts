/**
 * A type test: the build (`tsc -p tsconfig.json`, run before every spec) compiles this file, and
 * each `@ts-expect-error` below must meet the error it announces, or the build fails with "Unused
 * '@ts-expect-error' directive". So a `params` list out of step with its method's signature is a
 * compile error, and stays one. The mocha part checks the same declarations still record at run time.
 */
import { expect } from 'chai';
import { callable, callablesOf } from '../../../core/kernel/callable';
import { any, bool, int, list, object, string } from '../../../core/kernel/parameter';
import { inputs, string as text } from '../../../core/kernel/shape';

const LISTED = { description: 'spread into the options, as models do' };

class InStep {
  @callable({ params: [int('id'), bool('use_cache', { default: false })] })
  get(id: number, _useCache?: boolean) {
    return id;
  }

  @callable({ params: [int('client_id', { default: null }), string('status', { default: 'open', ...LISTED }), object('order_by', { default: { id: 'ASC' } }), list('ids', { default: [] })] })
  getList(clientId: number | null, status: string, orderBy: Record<string, unknown>, ids: unknown[]) {
    return [clientId, status, orderBy, ids];
  }

  @callable({ params: [object('vars')], vars: inputs({ name: text({ required: true }) }) })
  add(vars: Record<string, unknown>) {
    return vars;
  }

  @callable({ params: [any('value'), string('mode', { optional: true })] })
  set(value: unknown, mode: string) {
    return [value, mode];
  }

  @callable()
  getTypes() {
    return {};
  }
}

class OutOfStep {
  // @ts-expect-error one parameter declared, the method takes two
  @callable({ params: [int('id')] })
  twoTaken(id: number, other: number) {
    return id + other;
  }

  // @ts-expect-error two parameters declared, the method takes one
  @callable({ params: [int('id'), int('page')] })
  oneTaken(id: number) {
    return id;
  }

  // @ts-expect-error an optional parameter of the method counts: binding passes every declared one, and no more
  @callable({ params: [int('id')] })
  optionalExtra(id: number, page?: number) {
    return id + (page ?? 0);
  }

  // @ts-expect-error none declared, the method takes one
  @callable()
  undeclared(id: number) {
    return id;
  }

  // @ts-expect-error declared in another order than the method takes them
  @callable({ params: [int('id'), string('key')] })
  swapped(key: string, id: number) {
    return key + id;
  }

  // @ts-expect-error a kind the method does not take: text where it wants a number
  @callable({ params: [string('id')] })
  wrongKind(id: number) {
    return id;
  }

  // @ts-expect-error a set where it wants text
  @callable({ params: [object('vars')] })
  setForText(vars: string) {
    return vars;
  }

  // @ts-expect-error a default the method cannot hold: null for a number
  @callable({ params: [int('client_id', { default: null })] })
  nullDefault(clientId: number) {
    return clientId;
  }

  // @ts-expect-error any value, taken as text without a check
  @callable({ params: [any('value')] })
  anyAsText(value: string) {
    return value;
  }
}

describe('typed @callable declarations', () => {
  it('records the parameter lists that match their methods, as declared', () => {
    const declared = callablesOf(InStep);
    expect([...declared.keys()]).to.deep.equal(['get', 'getList', 'add', 'set', 'getTypes']);
    expect(declared.get('getList')!.params.map((p) => [p.name, p.kind, p.optional, p.default])).to.deep.equal([
      ['client_id', 'int', true, null],
      ['status', 'string', true, 'open'],
      ['order_by', 'object', true, { id: 'ASC' }],
      ['ids', 'list', true, []],
    ]);
    expect(declared.get('add')!.params[0].fields?.map((f) => f.name)).to.deep.equal(['name']);
    // The out-of-step declarations still compile to JavaScript (tsc reports, then emits): the build is what refuses them.
    expect(callablesOf(OutOfStep).size).to.equal(9);
  });
});
