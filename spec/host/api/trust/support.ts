import { TrustPolicy, TrustPolicyValues } from '../../../../core/identity/policy';
import { assembleInstallation } from '../../../../host/assemble-installation';
import { createLogger } from '../../../../host/logger';
import { serve } from '../../../../host/server';
import { Credential, RequestOptions, send, TestResponse, TestServer } from '../../../support/test-server';

export interface SecondProcess {
  readonly url: string;
  request(verb: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

/**
 * Another host over the same database, as a second process or machine would be: its own
 * installation, credential cache, lock-out cache and rate counters; only the database is shared.
 */
export async function secondProcess(server: TestServer, trust: Partial<TrustPolicyValues> = {}): Promise<SecondProcess> {
  const installation = await assembleInstallation({ databaseUrl: server.database.url, cacheTtlMs: 0, trust: new TrustPolicy({ stateCacheMs: 0, ...trust }) });
  const running = await serve({ installation, port: 0, host: '127.0.0.1', logger: createLogger('silent') });
  return {
    url: running.url,
    request: (verb, path, options = {}) => send(running.url, server.credential, verb, path, options),
    close: () => running.close(),
  };
}

/** Company 2 with its own company credential, made through the installation credential as an operator would. */
export async function secondCompany(server: TestServer): Promise<{ companyId: number; credential: Credential }> {
  const created = await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Second company', auth: server.installationCredential });
  if (created.status !== 200) throw new Error(`companies/add answered ${created.status}: ${created.text}`);
  const companyId = created.json.response as number;
  return { companyId, credential: await server.credentialFor(companyId) };
}

export const form = (fields: Record<string, string | number>) => new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString();
