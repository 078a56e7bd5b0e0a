import { expect } from 'chai';
import { defaultFormat, findFormat, formats } from '../../../../host/api/formats';
import { json } from '../../../../host/api/formats/json';
import { php } from '../../../../host/api/formats/php';
import { xml } from '../../../../host/api/formats/xml';

describe('format lookup', () => {
  it('lists json, xml and php', () => {
    expect(formats.map((format) => format.token)).to.deep.equal(['json', 'xml', 'php']);
  });

  it('finds each format by its token, case-insensitively', () => {
    expect(findFormat('json')).to.equal(json);
    expect(findFormat('JSON')).to.equal(json);
    expect(findFormat('Xml')).to.equal(xml);
    expect(findFormat('pHp')).to.equal(php);
  });

  it('finds nothing for unknown or empty tokens', () => {
    expect(findFormat('yaml')).to.equal(undefined);
    expect(findFormat('')).to.equal(undefined);
    expect(findFormat('json ')).to.equal(undefined);
  });

  it('defaults to json', () => {
    expect(defaultFormat).to.equal(json);
  });
});
