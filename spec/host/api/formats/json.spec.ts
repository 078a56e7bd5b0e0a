import { expect } from 'chai';
import { json } from '../../../../host/api/formats/json';

describe('json format', () => {
  it('is selected by json and sent as application/json', () => {
    expect(json.token).to.equal('json');
    expect(json.contentType).to.equal('application/json');
  });

  it('writes the envelope as plain JSON, ignoring the root', () => {
    const body = { response: { id: 1, username: 'admin', two_factor_key: null } };
    expect(json.render('users', body)).to.equal('{"response":{"id":1,"username":"admin","two_factor_key":null}}');
  });

  it('drops undefined values as JSON does', () => {
    expect(json.render('users', { response: { a: undefined, b: [undefined] } })).to.equal('{"response":{"b":[null]}}');
  });

  it('writes error envelopes and unicode unchanged', () => {
    const body = { message: 'Nom invalide é', errors: { name: { empty: 'Requis' } } };
    expect(JSON.parse(json.render('users', body))).to.deep.equal(body);
  });
});
