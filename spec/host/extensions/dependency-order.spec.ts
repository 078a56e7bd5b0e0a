import { expect } from 'chai';
import { orderByDependencies } from '../../../host/extensions/dependency-order';

describe('extension dependency order', () => {
  it('puts every extension after what it depends on', () => {
    const { order, problems } = orderByDependencies([
      { name: 'addon', depends: ['base', 'middle'] },
      { name: 'middle', depends: ['base'] },
      { name: 'base', depends: [] },
    ]);
    expect(problems.size).to.equal(0);
    expect(order).to.deep.equal(['base', 'middle', 'addon']);
  });

  it('reports each member of a cycle, and what depends on it', () => {
    const { order, problems } = orderByDependencies([
      { name: 'a', depends: ['b'] },
      { name: 'b', depends: ['c'] },
      { name: 'c', depends: ['a'] },
      { name: 'user', depends: ['a'] },
      { name: 'free', depends: [] },
    ]);
    expect(order).to.deep.equal(['free']);
    expect(problems.get('a')).to.equal('Dependency cycle: a → b → c → a.');
    expect(problems.get('c')).to.equal('Dependency cycle: a → b → c → a.');
    expect(problems.get('user')).to.contain('"a", which cannot be loaded');
  });

  it('tells a missing dependency from one that failed to load', () => {
    const { problems } = orderByDependencies(
      [
        { name: 'x', depends: ['gone'] },
        { name: 'y', depends: ['broken'] },
      ],
      new Set(['broken']),
    );
    expect(problems.get('x')).to.contain('not in the extensions directory');
    expect(problems.get('y')).to.contain('which failed to load');
  });

  it('reports a self-dependency as a cycle', () => {
    expect(orderByDependencies([{ name: 'me', depends: ['me'] }]).problems.get('me')).to.equal('Dependency cycle: me → me.');
  });
});
