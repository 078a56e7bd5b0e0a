import { expect } from 'chai';
import { TallyResult } from '../../sdk/src';

describe('sdk: TallyResult', () => {
  it('on success: response() is the envelope content, errors() false, message() null', () => {
    const result = new TallyResult(200, '{"response":{"id":1}}', { response: { id: 1 } }, 'json', 'application/json');
    expect(result.ok).to.equal(true);
    expect(result.response()).to.deep.equal({ id: 1 });
    expect(result.errors()).to.equal(false);
    expect(result.message()).to.equal(null);
  });

  it('a success without an envelope answers null rather than guessing', () => {
    expect(new TallyResult(200, '[1]', [1], 'json', 'application/json').response()).to.equal(null);
  });

  it("an error body that is not JSON (a proxy's 502 page) is errors() as text", () => {
    const result = new TallyResult(502, '<html>Bad gateway</html>', undefined, 'json', 'text/html');
    expect(result.response()).to.equal(null);
    expect(result.errors()).to.equal('<html>Bad gateway</html>');
    expect(result.message()).to.equal(null);
  });

  it('xml and php successes answer their text from response() and raw()', () => {
    const result = new TallyResult(200, 'a:1:{s:8:"response";i:3;}', undefined, 'php', 'text/plain; charset=UTF-8');
    expect(result.response()).to.equal('a:1:{s:8:"response";i:3;}');
    expect(result.raw()).to.equal(result.response());
  });

  it('a JSON error body in another format (a 415 for a bad URL) is still read', () => {
    const body = { message: 'The format requested is not supported by the server.' };
    const result = new TallyResult(415, JSON.stringify(body), body, 'yaml', 'application/json');
    expect(result.errors()).to.deep.equal(body);
    expect(result.message()).to.equal(body.message);
  });
});
