import { expect } from 'chai';
import { readExtensionModule } from '../../../host/extensions/kit/declarations';

describe('extension model declarations', () => {
  it('reads classes with a static callable map and plain object models', () => {
    class Tickets {
      get(id: number) {
        return id;
      }
      static callable = { get: { params: [{ name: 'ticket_id', kind: 'int' }], verb: 'GET' } };
    }
    const plain = { callable: { say: { params: ['text', { name: 'loud', kind: 'bool', default: false }] } }, say: (text: string) => text };
    const read = readExtensionModule({ models: { tickets: Tickets, echo: plain } });
    expect(read.descriptors.map((d) => d.model)).to.deep.equal(['tickets', 'echo']);
    const [get] = read.descriptors[0].callables;
    expect(get).to.deep.include({ method: 'get', verb: 'GET' });
    expect(get.params[0]).to.include({ name: 'ticket_id', kind: 'int', optional: false, defaultKnown: true });
    expect(read.descriptors[0].members).to.include.members(['get', 'constructor']);
    const say = read.descriptors[1].callables[0];
    expect(say.params.map((p) => [p.name, p.kind, p.optional, p.defaultKnown])).to.deep.equal([
      ['text', 'any', false, true],
      ['loud', 'bool', true, true],
    ]);
  });

  it('marks an optional parameter without a default as one whose default cannot be retrieved', () => {
    const read = readExtensionModule({ models: { m: { callable: { f: { params: [{ name: 'x', optional: true }] } }, f() {} } } });
    expect(read.descriptors[0].callables[0].params[0]).to.include({ optional: true, defaultKnown: false });
  });

  it('reads a TypeScript default export and orders migrations by name', () => {
    const read = readExtensionModule({ default: { models: {}, migrations: { '002_b': { up() {} }, '001_a': { up() {} } } } });
    expect([...read.migrations.keys()]).to.deep.equal(['001_a', '002_b']);
  });

  for (const [what, exported, message] of [
    ['no models export', {}, 'must export `models`'],
    ['a bad model name', { models: { 'Bad-Name': {} } }, 'lowercase'],
    ['a callable naming no method', { models: { m: { callable: { gone: {} } } } }, 'names no method'],
    ['undeclared parameters of a method that takes some', { models: { m: { callable: { f: {} }, f(a: unknown) {} } } }, 'declares no params'],
    ['a repeated parameter', { models: { m: { callable: { f: { params: ['a', 'a'] } }, f() {} } } }, 'twice'],
    ['an unknown kind', { models: { m: { callable: { f: { params: [{ name: 'a', kind: 'date' }] } }, f() {} } } }, 'kind must be one of'],
    ['a migration without up', { models: {}, migrations: { '001': {} } }, 'up(db)'],
    ['a hook that is not a function', { models: {}, install: 'yes' }, '`install` must be a function'],
  ] as const) {
    it(`refuses ${what}`, () => {
      expect(() => readExtensionModule(exported)).to.throw(message);
    });
  }
});
