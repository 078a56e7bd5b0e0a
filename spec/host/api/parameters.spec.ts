import { expect } from 'chai';
import { checkParameters, PARAMETER_LIMITS, parseQueryString } from '../../../host/api/parameters';
import { TallyError } from '../../../core/kernel/tally-error';

function refused(fn: () => unknown): Record<string, Record<string, string>> {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(TallyError);
    expect((e as TallyError).status).to.equal(400);
    return (e as TallyError).errors!;
  }
  return expect.fail('expected a 400');
}

/** The single error code on the single parameter of a 400. */
function refusal(fn: () => unknown): [string, string] {
  const errors = refused(fn);
  const names = Object.keys(errors);
  expect(names).to.have.length(1);
  const codes = Object.keys(errors[names[0]]);
  expect(codes).to.have.length(1);
  return [names[0], codes[0]];
}

function invoiceQuery(lines: number): string {
  const parts = ['vars[client_id]=7'];
  for (let i = 0; i < lines; i++) {
    parts.push(`vars[lines][${i}][description]=Line+${i}`, `vars[lines][${i}][amount]=${i}.50`, `vars[lines][${i}][quantity]=${(i % 3) + 1}`, `vars[lines][${i}][taxed]=${i % 2}`);
  }
  return parts.join('&');
}

describe('parameters', () => {
  it('exports the documented limits', () => {
    expect(PARAMETER_LIMITS).to.deep.equal({ depth: 8, arrayLimit: 1000, parameterLimit: 5000 });
  });

  describe('parseQueryString', () => {
    it('keeps a 500-line invoice (2001 parameters) a list of 500 with the right values', () => {
      const parsed = parseQueryString(invoiceQuery(500)) as { vars: { client_id: string; lines: Array<Record<string, string>> } };
      expect(parsed.vars.client_id).to.equal('7');
      expect(parsed.vars.lines).to.be.an('array').with.length(500);
      expect(parsed.vars.lines[0]).to.deep.equal({ description: 'Line 0', amount: '0.50', quantity: '1', taxed: '0' });
      expect(parsed.vars.lines[257]).to.deep.equal({ description: 'Line 257', amount: '257.50', quantity: '3', taxed: '1' });
      expect(parsed.vars.lines[499]).to.deep.equal({ description: 'Line 499', amount: '499.50', quantity: '2', taxed: '1' });
    });

    it("keeps a 21-line invoice a list (past qs's default arrayLimit of 20)", () => {
      const lines = (parseQueryString(invoiceQuery(21)) as { vars: { lines: unknown } }).vars.lines;
      expect(lines).to.be.an('array').with.length(21);
      expect((lines as Array<Record<string, string>>)[20].amount).to.equal('20.50');
    });

    it('accepts lists of up to arrayLimit items and refuses one more with max; a lone high index is a key, not a list', () => {
      const indexed = (n: number) => Array.from({ length: n }, (_, i) => `l[${n - 1 - i}]=${i}`).join('&');
      expect((parseQueryString(indexed(1000)).l as string[]).length).to.equal(1000);
      expect(refusal(() => parseQueryString(indexed(1001)))).to.deep.equal(['l[1000]', 'max']);
      expect(parseQueryString('l[1000000]=x')).to.deep.equal({ l: { 1000000: 'x' } });
    });

    it('refuses more than arrayLimit [] items rather than turning the list into an object', () => {
      const many = (n: number) => Array.from({ length: n }, (_, i) => `t[]=${i}`).join('&');
      expect((parseQueryString(many(1000)).t as string[]).length).to.equal(1000);
      expect(refusal(() => parseQueryString(many(1001)))).to.deep.equal(['t[]', 'max']);
    });

    it('reads http_build_query [] lists', () => {
      expect(parseQueryString('a[]=1&a[]=2&a[]=3')).to.deep.equal({ a: ['1', '2', '3'] });
      expect(parseQueryString('a%5B%5D=1&a%5B%5D=2')).to.deep.equal({ a: ['1', '2'] });
    });

    it('keeps keys as PHP does: indexes 0..n-1 in any order are a list, sparse indexes an object keyed by them', () => {
      expect(parseQueryString('l[1]=b&l[0]=a')).to.deep.equal({ l: ['a', 'b'] });
      expect(parseQueryString('vars[custom][5]=x&vars[custom][12]=y')).to.deep.equal({ vars: { custom: { 5: 'x', 12: 'y' } } });
      expect(parseQueryString('lines[5]=a&lines[2]=b')).to.deep.equal({ lines: { 2: 'b', 5: 'a' } });
      expect(parseQueryString('l[3][x]=1&l[3][y]=2&l[0][x]=3')).to.deep.equal({ l: { 0: { x: '3' }, 3: { x: '1', y: '2' } } });
    });

    it('makes an object of a container with any non-index key', () => {
      expect(parseQueryString('l[0]=a&l[x]=b')).to.deep.equal({ l: { 0: 'a', x: 'b' } });
      expect(parseQueryString('m[b]=1&m[c][d]=2')).to.deep.equal({ m: { b: '1', c: { d: '2' } } });
    });

    it('keeps the last of a repeated scalar, as PHP does', () => {
      expect(parseQueryString('a=1&a=2')).to.deep.equal({ a: '2' });
      expect(parseQueryString('a[x]=1&a[y]=2&a[x]=3')).to.deep.equal({ a: { x: '3', y: '2' } });
      expect(parseQueryString('l[0]=1&l[0]=2')).to.deep.equal({ l: ['2'] });
    });

    it('decodes + as a space and percent-escapes, in names and values', () => {
      expect(parseQueryString('a+b=c+d%2B%20e')).to.deep.equal({ 'a b': 'c d+ e' });
      expect(parseQueryString('q=a%26b%3Dc')).to.deep.equal({ q: 'a&b=c' });
    });

    it('reads unicode, raw or percent-encoded', () => {
      expect(parseQueryString('name=%C3%A9t%C3%A9&city=K%C3%B8benhavn&e=%F0%9F%A7%BE')).to.deep.equal({ name: 'été', city: 'København', e: '🧾' });
      expect(parseQueryString('名前=日本')).to.deep.equal({ 名前: '日本' });
    });

    it('keeps brackets and = inside values as text', () => {
      expect(parseQueryString('note=a%5Bb%5D%3Dc')).to.deep.equal({ note: 'a[b]=c' });
      expect(parseQueryString('x=%5D=')).to.deep.equal({ x: ']=' });
      expect(parseQueryString('a=b]=c')).to.deep.equal({ a: 'b]=c' });
    });

    it('reads an empty string as no parameters, and a bare name as ""', () => {
      expect(parseQueryString('')).to.deep.equal({});
      expect(parseQueryString('flag&a=')).to.deep.equal({ flag: '', a: '' });
      expect(parseQueryString('&&a=1&&=x')).to.deep.equal({ a: '1' });
    });

    it('keeps dots in names (no dot notation)', () => {
      expect(parseQueryString('a.b=1&plugin.model[x.y]=2')).to.deep.equal({ 'a.b': '1', 'plugin.model': { 'x.y': '2' } });
    });

    it('returns plain objects and arrays', () => {
      const parsed = parseQueryString('a[b]=1&c[]=2');
      expect(Object.getPrototypeOf(parsed)).to.equal(Object.prototype);
      expect(Object.getPrototypeOf(parsed.a)).to.equal(Object.prototype);
      expect(Array.isArray(parsed.c)).to.equal(true);
    });

    it('reads a name it has seen before the same way, and refuses a refused name every time (names are remembered once checked)', () => {
      const query = 'vars%5Blines%5D%5B0%5D%5Bamount%5D=1.5&vars%5Blines%5D%5B1%5D%5Bamount%5D=2&vars%5Bcurrency%5D=USD';
      const first = parseQueryString(query);
      const again = parseQueryString(query);
      expect(again)
        .to.deep.equal(first)
        .and.to.deep.equal({ vars: { lines: [{ amount: '1.5' }, { amount: '2' }], currency: 'USD' } });
      expect(again.vars).not.to.equal(first.vars);
      for (let i = 0; i < 2; i++) {
        expect(refusal(() => parseQueryString('a%5B__proto__%5D=1'))).to.deep.equal(['a[__proto__]', 'valid']);
        expect(refusal(() => parseQueryString('a[b=1'))).to.deep.equal(['a[b', 'format']);
        expect(refusal(() => parseQueryString('n%FF=1'))).to.deep.equal(['n%FF', 'format']);
      }
      // A name remembered alone still conflicts with a container of the same name in one request.
      expect(parseQueryString('a=1')).to.deep.equal({ a: '1' });
      expect(refusal(() => parseQueryString('a=1&a[x]=2'))).to.deep.equal(['a[x]', 'format']);
    });

    it('refuses prototype names anywhere in a name with valid', () => {
      const names = [
        '__proto__[x]=1',
        'a[__proto__][x]=1',
        'constructor[prototype][x]=1',
        'a[constructor]=1',
        'a[b][prototype]=1',
        'toString=1',
        'a[hasOwnProperty]=1',
        '__pro%74o__[x]=1',
        'a%5B__proto__%5D=1',
      ];
      for (const q of names) expect(refusal(() => parseQueryString(q))[1], q).to.equal('valid');
      expect(refusal(() => parseQueryString('a[__proto__][polluted]=1'))).to.deep.equal(['a[__proto__][polluted]', 'valid']);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      expect(({} as Record<string, unknown>).x).to.equal(undefined);
    });

    it('refuses nesting deeper than the limit with format, accepting the limit itself', () => {
      const deep = (n: number) => 'a' + Array.from({ length: n }, (_, i) => `[k${i}]`).join('') + '=1';
      expect(JSON.stringify(parseQueryString(deep(8)))).to.equal('{"a":{"k0":{"k1":{"k2":{"k3":{"k4":{"k5":{"k6":{"k7":"1"}}}}}}}}}');
      expect(refusal(() => parseQueryString(deep(9)))).to.deep.equal([deep(9).slice(0, -2), 'format']);
    });

    it('refuses more than parameterLimit parameters instead of truncating', () => {
      const params = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=1`).join('&');
      expect(Object.keys(parseQueryString(params(5000)))).to.have.length(5000);
      expect(refusal(() => parseQueryString(params(5001)))).to.deep.equal(['p5000', 'max']);
    });

    it('refuses malformed brackets with format on the name', () => {
      for (const [q, name] of [
        ['a[b=1', 'a[b'],
        ['a]b[=1', 'a]b['],
        ['a[b]c=1', 'a[b]c'],
        ['[x]=1', '[x]'],
        ['a[b[c]]=1', 'a[b[c]]'],
        ['a]=1', 'a]'],
        ['a[b]]=1', 'a[b]]'],
      ]) {
        expect(
          refusal(() => parseQueryString(q)),
          q,
        ).to.deep.equal([name, 'format']);
      }
    });

    it('refuses invalid percent-encoding or UTF-8 with format, not a silent U+FFFD', () => {
      expect(refusal(() => parseQueryString('a=%FF'))).to.deep.equal(['a', 'format']);
      expect(refusal(() => parseQueryString('ok=1&b=%E0%80'))).to.deep.equal(['b', 'format']);
      expect(refusal(() => parseQueryString('c=100%'))).to.deep.equal(['c', 'format']);
      expect(refusal(() => parseQueryString('d=%zz'))).to.deep.equal(['d', 'format']);
      expect(refusal(() => parseQueryString('e=%ED%A0%80'))).to.deep.equal(['e', 'format']); // a UTF-16 surrogate
      expect(refusal(() => parseQueryString('n%FF=1'))).to.deep.equal(['n%FF', 'format']);
    });

    it('refuses [] before further groups, where qs and PHP disagree', () => {
      expect(refusal(() => parseQueryString('a[][x]=1&a[][y]=2'))).to.deep.equal(['a[][x]', 'format']);
    });

    it('refuses a name given both as a value and as a container', () => {
      expect(refusal(() => parseQueryString('a=1&a[x]=2'))).to.deep.equal(['a[x]', 'format']);
      expect(refusal(() => parseQueryString('a[x]=2&a=1'))).to.deep.equal(['a', 'format']);
      expect(refusal(() => parseQueryString('l[0]=x&l[0][b]=y'))).to.deep.equal(['l[0][b]', 'format']);
      expect(refusal(() => parseQueryString('a=1&a[]=2'))).to.deep.equal(['a[]', 'format']);
    });

    it('refuses [] mixed with explicit keys in one list', () => {
      expect(refusal(() => parseQueryString('a[]=1&a[0]=2'))).to.deep.equal(['a[0]', 'format']);
      expect(refusal(() => parseQueryString('a[0]=1&a[]=2'))).to.deep.equal(['a[]', 'format']);
    });
  });

  describe('checkParameters', () => {
    it('accepts ordinary JSON bodies, including a 500-line invoice', () => {
      const lines = Array.from({ length: 500 }, (_, i) => ({ description: `Line ${i}`, amount: i + 0.5, quantity: 1, taxed: true }));
      expect(() => checkParameters({ vars: { client_id: 7, lines, note: null, tags: [] } })).to.not.throw();
      expect(() => checkParameters({ 'vars[lines][0][amount]': '5', 'a.b': 'x', '': 1 })).to.not.throw();
      expect(() => checkParameters(undefined)).to.not.throw();
    });

    it('refuses prototype names from JSON.parse, at any depth', () => {
      expect(refusal(() => checkParameters(JSON.parse('{"__proto__": {"x": 1}}')))).to.deep.equal(['__proto__', 'valid']);
      expect(refusal(() => checkParameters(JSON.parse('{"a": [{"constructor": {"prototype": 1}}]}')))).to.deep.equal(['a[0][constructor]', 'valid']);
      expect(refusal(() => checkParameters({ 'vars[prototype]': 1 }))).to.deep.equal(['vars[prototype]', 'valid']);
    });

    it('refuses malformed bracket names (flat multipart fields)', () => {
      expect(refusal(() => checkParameters({ 'a[b': '1' }))).to.deep.equal(['a[b', 'format']);
      expect(refusal(() => checkParameters({ vars: { 'x]y': '1' } }))).to.deep.equal(['vars[x]y]', 'format']);
    });

    it('counts depth across nesting and bracket names alike', () => {
      let eight: Record<string, unknown> = { k7: 1 };
      for (let i = 6; i >= 0; i--) eight = { [`k${i}`]: eight };
      expect(() => checkParameters({ a: eight })).to.not.throw();
      expect(refusal(() => checkParameters({ a: { x: eight } }))[1]).to.equal('format');
      expect(() => checkParameters({ 'a[1][2][3][4]': { '5[6][7]': { 8: 1 } } })).to.not.throw();
      expect(refusal(() => checkParameters({ 'a[1][2][3][4]': { '5[6][7]': { '8[9]': 1 } } }))).to.deep.equal(['a[1][2][3][4][5[6][7]][8[9]]', 'format']);
    });

    it('refuses lists over arrayLimit and more than parameterLimit values', () => {
      expect(refusal(() => checkParameters({ l: new Array(1001).fill(0) }))).to.deep.equal(['l', 'max']);
      const wide = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`p${i}`, i]));
      expect(refusal(() => checkParameters(wide))).to.deep.equal(['p5000', 'max']);
      const lines = (fields: number) => ({ l: Array.from({ length: 1000 }, () => Object.fromEntries(Array.from({ length: fields }, (_, i) => [`f${i}`, i]))) });
      expect(() => checkParameters(lines(5))).to.not.throw(); // exactly 5000 values
      expect(refusal(() => checkParameters(lines(6)))).to.deep.equal(['l[833][f2]', 'max']);
    });

    it('refuses strings that are not well-formed Unicode', () => {
      expect(refusal(() => checkParameters({ a: ['ok', 'x\uD800y'] }))).to.deep.equal(['a[1]', 'format']);
      expect(() => checkParameters({ a: '🧾 ok' })).to.not.throw();
    });
  });
});
