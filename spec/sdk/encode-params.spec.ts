import { expect } from 'chai';
import fc from 'fast-check';
import { parseQueryString } from '../../host/api/parameters';
import { encodeParams, SdkError } from '../../sdk/src';

describe('sdk: encodeParams', () => {
  it('writes bracket notation with explicit list indexes, form-encoded like http_build_query', () => {
    const encoded = encodeParams({ vars: { lines: [{ amount: '5.00', description: 'a b' }], delivery: ['email'] }, type: 'any' });
    expect(encoded.toString()).to.equal('vars%5Blines%5D%5B0%5D%5Bamount%5D=5.00&vars%5Blines%5D%5B0%5D%5Bdescription%5D=a+b&vars%5Bdelivery%5D%5B0%5D=email&type=any');
  });

  it('sends true/false as 1/0, Dates as UTC with Z, skips null and undefined', () => {
    const encoded = encodeParams({ a: true, b: false, at: new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 678)), c: null, d: undefined });
    expect([...encoded]).to.deep.equal([
      ['a', '1'],
      ['b', '0'],
      ['at', '2020-01-02T03:04:05Z'],
    ]);
  });

  it('sends an empty top-level list or object as an empty value, and leaves nested empty ones out', () => {
    expect(encodeParams({ vars: {}, ids: [], x: { y: [], z: {} } }).toString()).to.equal('vars=&ids=');
  });

  it('refuses an invalid Date', () => {
    expect(() => encodeParams({ at: new Date('nope') })).to.throw(SdkError, /invalid Date/);
  });

  it('round-trips through the server parser: what the SDK sends is what a method receives', () => {
    // Keys the server accepts (no brackets, not Object.prototype names); values as the server reads them: strings.
    const key = fc.stringMatching(/^[a-z_][a-z0-9_ .-]{0,8}$/).filter((k) => !(k in Object.prototype) && k !== 'prototype');
    const text = fc.string({ unit: 'grapheme', maxLength: 12 });
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small', maxDepth: 5 }, text, tie('list'), tie('object')),
      list: fc.array(tie('node'), { minLength: 1, maxLength: 4 }),
      object: fc.dictionary(key, tie('node'), { minKeys: 1, maxKeys: 4 }),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 5 }), (params) => {
        expect(parseQueryString(encodeParams(params as never).toString())).to.deep.equal(params);
      }),
      { numRuns: 300 },
    );
  });
});
