import { TallyClient } from '../../../sdk/src';
import { startTestServer, TestServer } from '../../support/test-server';
import { registerEcho } from './echo-model';

export interface SdkServer {
  readonly server: TestServer;
  readonly client: TallyClient;
}

/**
 * Registers mocha hooks that start a real server with the spec echo model, and an SDK client
 * authenticated against it, around the calling `describe`; read them in tests through the holder.
 */
export function useSdkServer(): SdkServer {
  const holder = {} as { server: TestServer; client: TallyClient };
  before(async () => {
    holder.server = await startTestServer();
    registerEcho(holder.server);
    holder.client = new TallyClient({ url: holder.server.url, ...holder.server.credential });
  });
  after(() => holder.server.close());
  return holder;
}
