import { expect } from 'chai';
import fc from 'fast-check';
import { convert, create } from 'xmlbuilder2';
import { xml } from '../../../../host/api/formats/xml';

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>';
const lines = (...rows: string[]): string => [HEAD, ...rows].join('\n');

// xmlbuilder2's parser is lenient, so the parsed document is also re-serialised in its well-formed
// mode, which rejects bad names and characters the parser let through.
function parse(document: string) {
  const parsed = create(document);
  parsed.end({ wellFormed: true });
  return parsed;
}

const asObject = (document: string): unknown => convert(document, { format: 'object' });

describe('xml format', () => {
  it('is selected by xml and sent as application/xml', () => {
    expect(xml.token).to.equal('xml');
    expect(xml.contentType).to.equal('application/xml');
  });

  it('writes a record under the model name, tab-indented', () => {
    const body = { response: { id: 1, username: 'admin', two_factor_key: null } };
    expect(xml.render('users', body)).to.equal(`${HEAD}\n<users>\n\t<response>\n\t\t<id>1</id>\n\t\t<username>admin</username>\n\t\t<two_factor_key/>\n\t</response>\n</users>`);
  });

  it('writes the root as the reference does: lower case, without underscores, dots kept', () => {
    expect(xml.render('support_manager.tickets', { response: 1 })).to.equal(lines('<supportmanager.tickets>', '\t<response>1</response>', '</supportmanager.tickets>'));
  });

  it('repeats the key for each item of a list', () => {
    const body = { response: [{ id: 1 }, { id: 2 }] };
    expect(xml.render('users', body)).to.equal(lines('<users>', '\t<response>', '\t\t<id>1</id>', '\t</response>', '\t<response>', '\t\t<id>2</id>', '\t</response>', '</users>'));
  });

  it('repeats nested list keys inside a record', () => {
    const body = { response: { lines: [{ amount: 5 }, { amount: 7.5 }], tags: ['a', 'b'] } };
    expect(asObject(xml.render('invoices', body))).to.deep.equal({
      invoices: { response: { lines: [{ amount: '5' }, { amount: '7.5' }], tags: ['a', 'b'] } },
    });
  });

  it('names the items of a list inside a list result', () => {
    const body = { response: [[1, 2], [[3]]] };
    expect(xml.render('m', body)).to.equal(
      lines(
        '<m>',
        '\t<response>',
        '\t\t<result>1</result>',
        '\t\t<result>2</result>',
        '\t</response>',
        '\t<response>',
        '\t\t<result>',
        '\t\t\t<result>3</result>',
        '\t\t</result>',
        '\t</response>',
        '</m>',
      ),
    );
  });

  it('writes null, undefined, false, empty strings, lists and records as empty elements, true as 1', () => {
    const body = { response: { a: null, b: undefined, c: false, d: '', e: [], f: {}, g: true, h: 0, i: -1.25 } };
    expect(xml.render('m', body)).to.equal(
      lines('<m>', '\t<response>', ...['<a/>', '<b/>', '<c/>', '<d/>', '<e/>', '<f/>', '<g>1</g>', '<h>0</h>', '<i>-1.25</i>'].map((row) => `\t\t${row}`), '\t</response>', '</m>'),
    );
    expect(xml.render('m', { response: [] })).to.equal(lines('<m>', '\t<response/>', '</m>'));
  });

  it('writes error envelopes', () => {
    const body = { message: 'Invalid', errors: { username: { empty: 'Required' } } };
    expect(xml.render('users', body)).to.equal(
      lines('<users>', '\t<message>Invalid</message>', '\t<errors>', '\t\t<username>', '\t\t\t<empty>Required</empty>', '\t\t</username>', '\t</errors>', '</users>'),
    );
  });

  it('drops characters outside [A-Za-z0-9_.-] from names', () => {
    const body = { response: { 'lines[0][description]': 'x', 'first name': 'y', é: 'z' } };
    expect(asObject(xml.render('users', body))).to.deep.equal({
      users: { response: { lines0description: 'x', firstname: 'y', _: 'z' } },
    });
  });

  it('prefixes names that cannot start an element with _, and turns colons into _', () => {
    const body = { response: { '12': 'a', '': 'b', '-x': 'c', '.y': 'd', 'a:b': 'e', ':c': 'f', 'd::': 'g' } };
    const document = xml.render('1 bad/root', body);
    parse(document);
    expect(asObject(document)).to.deep.equal({
      _1badroot: { response: { _12: 'a', _: 'b', '_-x': 'c', '_.y': 'd', a_b: 'e', _c: 'f', d__: 'g' } },
    });
  });

  it('writes __proto__ and constructor keys and null-prototype records', () => {
    const record = Object.assign(Object.create(null) as Record<string, unknown>, { constructor: 'c', id: 3 });
    const body = { response: { ...JSON.parse('{"__proto__": {"x": 1}}'), record } };
    const document = xml.render('m', body);
    parse(document);
    expect(document).to.equal(
      lines(
        '<m>',
        '\t<response>',
        ...['<__proto__>', '\t<x>1</x>', '</__proto__>', '<record>', '\t<constructor>c</constructor>', '\t<id>3</id>', '</record>'].map((row) => `\t\t${row}`),
        '\t</response>',
        '</m>',
      ),
    );
  });

  it('escapes markup, keeps unicode and strips characters XML cannot hold', () => {
    const message = 'a & <b> "c" é 😀\u0000\u0001\u000b\ud800\uffff\tend';
    const document = xml.render('m', { message });
    expect(document).to.contain('<message>a &amp; &lt;b&gt; "c" é 😀\tend</message>');
    expect(parse(document).root().first().node.textContent).to.equal('a & <b> "c" é 😀\tend');
  });

  it('writes dates as JSON does', () => {
    expect(asObject(xml.render('m', { response: { at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) } }))).to.deep.equal({
      m: { response: { at: '2024-01-02T03:04:05.000Z' } },
    });
  });

  it('writes deeply nested records', () => {
    let value: unknown = 'leaf';
    for (let i = 0; i < 500; i++) value = { n: value };
    let node = parse(xml.render('m', { response: value }))
      .root()
      .first();
    for (let i = 0; i < 500; i++) node = node.first();
    expect(node.node.textContent).to.equal('leaf');
  });

  it('stops at cycles instead of recursing forever', () => {
    const record: Record<string, unknown> = { id: 1 };
    record.self = record;
    record.list = [record];
    expect(xml.render('m', { response: record })).to.equal(lines('<m>', '\t<response>', '\t\t<id>1</id>', '\t\t<self/>', '\t\t<list/>', '\t</response>', '</m>'));
  });

  it('never throws and always produces well-formed XML', () => {
    const text = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) });
    const key = fc.oneof(text, fc.constantFrom('__proto__', 'constructor', '0', '12', '', 'lines[0][description]', ':a'));
    const value = fc.anything({
      key,
      values: [text, fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined)],
      withNullPrototype: true,
      withBigInt: true,
      withDate: true,
      withSparseArray: true,
      withMap: true,
      withSet: true,
      withBoxedValues: true,
    });
    fc.assert(
      fc.property(text, fc.dictionary(key, value), (root, body) => {
        parse(xml.render(root, body));
      }),
    );
  });
});
