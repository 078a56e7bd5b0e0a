import { expect } from 'chai';
import * as modelContainer from '../../../core/kernel/model-container';
import { startTestServer, TestServer } from '../../support/test-server';

/**
 * An API call is resolved once, by the call path, into the record every later stage reads (the
 * audit hook's row, the answer's declared shape for XML and PHP): counted by spying the resolver.
 */
describe('dispatch: one resolution per call', () => {
  let server: TestServer;
  const resolver = modelContainer as { resolveModelMethod: typeof modelContainer.resolveModelMethod };
  const original = resolver.resolveModelMethod;
  let resolved: string[] = [];

  before(async () => {
    server = await startTestServer();
    resolver.resolveModelMethod = (container, model, method) => {
      resolved.push(`${model}/${method}`);
      return original(container, model, method);
    };
  });
  beforeEach(() => (resolved = []));
  after(async () => {
    resolver.resolveModelMethod = original;
    await server.close();
  });

  for (const format of ['json', 'xml', 'php']) {
    it(`resolves an audited HTTP write answered in ${format} exactly once`, async () => {
      const added = await server.request('POST', `/api/clients/add.${format}`, { body: `vars[first_name]=Once&vars[last_name]=Only&vars[email]=once-${format}@example.com` });
      expect(added.status, added.text).to.equal(200);
      expect(resolved).to.deep.equal(['clients/add']);
    });
  }

  it('resolves a write refused with a 400 exactly once (its audit row included)', async () => {
    expect((await server.request('POST', '/api/clients/add.json', { body: 'vars[email]=not-an-email' })).status).to.equal(400);
    expect(resolved).to.deep.equal(['clients/add']);
  });
});
