import { migrations } from './migrations';
import { Servers } from './servers';
import { Services } from './services';

/** Generic Server: `generic_server.servers` and `generic_server.services`. */
export const models = { servers: Servers, services: Services };
export { migrations };
