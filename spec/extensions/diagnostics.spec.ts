import { expect } from 'chai';
import { startTestServer, TestServer } from '../support/test-server';
import { install, SHIPPED_EXTENSIONS } from './shipped';

describe('plugin diagnostics', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS, extensionLimits: { heapMb: 48 } });
    await install(server, 'plugin_manager', 'vars[dir]=diagnostics');
  });
  after(() => server.close());

  it('echoes a value through its worker', async () => {
    const res = await server.request('POST', '/api/diagnostics.sandbox/echo.json', { body: 'value=h%C3%A9llo' });
    expect(res.json).to.deep.equal({ response: 'héllo' });
  });

  it("reports the worker's heap against the configured limit", async () => {
    const info = (await server.request('GET', '/api/diagnostics.sandbox/info.json')).json.response;
    expect(info.heap_limit_mb).to.be.within(40, 80);
    expect(info.heap_used_mb).to.be.above(0).and.below(info.heap_limit_mb);
    expect(info.node).to.equal(process.version);
  });
});
