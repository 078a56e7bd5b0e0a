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

  it('echoes a value through its sandbox', async () => {
    const res = await server.request('POST', '/api/diagnostics.sandbox/echo.json', { body: 'value=h%C3%A9llo' });
    expect(res.json).to.deep.equal({ response: 'héllo' });
  });

  it('runs where neither process nor require exists', async () => {
    const info = (await server.request('GET', '/api/diagnostics.sandbox/info.json')).json.response;
    expect(info).to.include({ has_process: false, has_require: false, company_id: 1 });
    expect(info.uptime_s).to.be.at.least(0);
  });
});
