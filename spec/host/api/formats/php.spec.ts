import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { php } from '../../../../host/api/formats/php';
import { int, listOf, mapOf, record, string } from '../../../../core/kernel/shape';

const render = (body: Record<string, unknown>): string => php.render('ignored', body);

describe('php format', () => {
  it('is selected by php and sent as UTF-8 text', () => {
    expect(php.token).to.equal('php');
    expect(php.contentType).to.equal('text/plain; charset=UTF-8');
  });

  it('writes the envelope as an array and records as stdClass', () => {
    const body = { response: { id: 1, username: 'admin', date_added: '2024-01-02 03:04:05' } };
    expect(render(body)).to.equal('a:1:{s:8:"response";O:8:"stdClass":3:{s:2:"id";i:1;s:8:"username";s:5:"admin";s:10:"date_added";s:19:"2024-01-02 03:04:05";}}');
  });

  it('writes lists as arrays with integer keys, nested to any depth', () => {
    expect(render({ response: [{ id: 1, tags: ['a'] }, [[]]] })).to.equal('a:1:{s:8:"response";a:2:{i:0;O:8:"stdClass":2:{s:2:"id";i:1;s:4:"tags";a:1:{i:0;s:1:"a";}}i:1;a:1:{i:0;a:0:{}}}}');
  });

  it('writes error envelopes with errors as arrays, as the reference writes its Input errors()', () => {
    expect(render({ message: 'Invalid', errors: { name: { empty: 'Required' } } })).to.equal('a:2:{s:7:"message";s:7:"Invalid";s:6:"errors";a:1:{s:4:"name";a:1:{s:5:"empty";s:8:"Required";}}}');
  });

  it('writes a set the declared answer says has varying names (mapOf) as an array, records as stdClass', () => {
    const shape = listOf(record({ id: int(), settings: mapOf(string()) }));
    expect(php.render('m', { response: [{ id: 1, settings: { '5': 'x', tz: 'UTC' } }] }, shape)).to.equal(
      'a:1:{s:8:"response";a:1:{i:0;O:8:"stdClass":2:{s:2:"id";i:1;s:8:"settings";a:2:{i:5;s:1:"x";s:2:"tz";s:3:"UTC";}}}}',
    );
    expect(php.render('m', { response: { active: 'Active' } }, mapOf(string()))).to.equal('a:1:{s:8:"response";a:1:{s:6:"active";s:6:"Active";}}');
  });

  it('writes scalars as PHP does', () => {
    const values = [true, false, null, undefined, 0, -7, 2 ** 53 + 2, 2 ** 63, 1.5, 0.00012, 9.9e-5, 1e17, 1e25, -2.5e-7, NaN, Infinity, -Infinity, 12n, 2n ** 64n];
    expect(render({ v: values })).to.equal(
      'a:1:{s:1:"v";a:19:{i:0;b:1;i:1;b:0;i:2;N;i:3;N;i:4;i:0;i:5;i:-7;i:6;i:9007199254740994;i:7;d:9.223372036854776E+18;' +
        'i:8;d:1.5;i:9;d:0.00012;i:10;d:9.9E-5;i:11;i:100000000000000000;i:12;d:1.0E+25;i:13;d:-2.5E-7;' +
        'i:14;d:NAN;i:15;d:INF;i:16;d:-INF;i:17;i:12;i:18;d:1.8446744073709552E+19;}}',
    );
  });

  it('counts string lengths in UTF-8 bytes and writes quotes unescaped', () => {
    expect(render({ a: 'é', b: '😀', c: 'a"b;', d: '' })).to.equal('a:4:{s:1:"a";s:2:"é";s:1:"b";s:4:"😀";s:1:"c";s:4:"a"b;";s:1:"d";s:0:"";}');
  });

  it('writes array keys PHP reads as integers as integers, and record properties as strings (as PHP 8 does)', () => {
    const record = { '0': 'a', '12': 'b', '-5': 'c', '012': 'd', '-0': 'e', '1.5': 'f', '9223372036854775808': 'g' };
    expect(render({ '7': record })).to.equal(
      'a:1:{i:7;O:8:"stdClass":7:{s:1:"0";s:1:"a";s:2:"12";s:1:"b";s:2:"-5";s:1:"c";s:3:"012";s:1:"d";s:2:"-0";s:1:"e";' + 's:3:"1.5";s:1:"f";s:19:"9223372036854775808";s:1:"g";}}',
    );
  });

  it('writes __proto__ and constructor keys, odd keys and null-prototype records', () => {
    const record = Object.assign(Object.create(null) as Record<string, unknown>, { constructor: 'c' });
    const body = { ...JSON.parse('{"__proto__": 1}'), record, 'lines[0][description]': undefined };
    expect(render(body)).to.equal('a:3:{s:9:"__proto__";i:1;s:6:"record";O:8:"stdClass":1:{s:11:"constructor";s:1:"c";}s:21:"lines[0][description]";N;}');
  });

  it('writes dates as JSON does and cycles as null', () => {
    const record: Record<string, unknown> = { at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) };
    record.self = record;
    expect(render({ response: record })).to.equal('a:1:{s:8:"response";O:8:"stdClass":2:{s:2:"at";s:24:"2024-01-02T03:04:05.000Z";s:4:"self";N;}}');
  });

  it('writes deeply nested records', () => {
    let value: unknown = 1;
    for (let i = 0; i < 500; i++) value = { n: value };
    const out = render({ response: value });
    expect(out.match(/O:8:"stdClass":1:\{s:1:"n";/g)).to.have.length(500);
    expect(out.endsWith(`i:1;${'}'.repeat(501)}`)).to.equal(true);
  });

  describe('read back by PHP', function () {
    before(function () {
      if (spawnSync('php', ['-v']).error) this.skip();
    });

    // Runs PHP with the serialized text on stdin; any notice (such as unserialize's "Error at offset")
    // fails the spec.
    function runPhp(code: string, input: string): string {
      const result = spawnSync('php', ['-d', 'display_errors=stderr', '-d', 'error_reporting=-1', '-r', code], { input, encoding: 'utf8' });
      expect(result.stderr).to.equal('');
      expect(result.status).to.equal(0);
      return result.stdout;
    }

    const roundTrip = (body: Record<string, unknown>): unknown => JSON.parse(runPhp('echo json_encode(unserialize(stream_get_contents(STDIN)), JSON_THROW_ON_ERROR, 4096);', render(body)));

    it('gives back the same bytes when PHP serializes what it read', () => {
      const body = {
        response: [{ id: 1, name: 'Zoë 😀', total: 12.5, small: 1.5e-7, paid: false, void: true, note: null, lines: [] }],
        '0': 'zero',
      };
      const serialized = render(body);
      expect(runPhp('echo serialize(unserialize(stream_get_contents(STDIN)));', serialized)).to.equal(serialized);
    });

    it('reads records as stdClass and lists and the envelope as arrays', () => {
      const code = `function t($x) { return is_object($x) ? get_class($x) : gettype($x); }
        $v = unserialize(stream_get_contents(STDIN));
        echo t($v), ' ', t($v['response']), ' ', t($v['response']->list), ' ', t($v['response']->list[0]), ' ', t($v['response']->{'12'});`;
      expect(runPhp(code, render({ response: { list: [{}], '12': 'x' } }))).to.equal('array stdClass array stdClass string');
    });

    it('reads floats that JSON cannot carry', () => {
      const code = `echo implode(',', array_map(function ($x) { return var_export($x, true); }, unserialize(stream_get_contents(STDIN))['v']));`;
      expect(runPhp(code, render({ v: [NaN, Infinity, -Infinity, 1e25, 0.1] }))).to.equal('NAN,INF,-INF,1.0E+25,0.1');
    });

    it('reads unicode, odd keys and deep nesting back unchanged', () => {
      let deep: unknown = 'leaf';
      for (let i = 0; i < 300; i++) deep = [{ n: deep }];
      const body = {
        response: { é: 'ü 😀 \u0000 "x";', '0': [], '12': {}, constructor: 1, 'lines[0][description]': 'd', deep },
      };
      expect(roundTrip(body)).to.deep.equal(JSON.parse(JSON.stringify(body)));
    });

    it('reads a lone surrogate as the replacement character it is sent as', () => {
      expect(roundTrip({ s: 'a\ud800b' })).to.deep.equal({ s: 'a\ufffdb' });
    });

    it('reads any JSON value back as JSON has it', () => {
      const values = fc.sample(fc.jsonValue({ stringUnit: 'grapheme' }), 300);
      const input = values
        .map((value) => render({ response: value }))
        .map((s) => `${Buffer.byteLength(s)}\n${s}`)
        .join('');
      const code = `$in = stream_get_contents(STDIN); $all = []; $at = 0;
        while ($at < strlen($in)) {
          $nl = strpos($in, "\\n", $at); $length = (int) substr($in, $at, $nl - $at);
          $all[] = unserialize(substr($in, $nl + 1, $length))['response']; $at = $nl + 1 + $length;
        }
        echo json_encode($all, JSON_THROW_ON_ERROR);`;
      expect(JSON.parse(runPhp(code, input))).to.deep.equal(JSON.parse(JSON.stringify(values)));
    });
  });

  it('never throws on any value', () => {
    const value = fc.anything({
      withNullPrototype: true,
      withBigInt: true,
      withDate: true,
      withSparseArray: true,
      withMap: true,
      withSet: true,
      withBoxedValues: true,
      withTypedArray: true,
      stringUnit: 'binary',
    });
    fc.assert(fc.property(fc.dictionary(fc.string(), value), (body) => void render(body)));
  });
});
