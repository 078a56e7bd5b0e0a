import path from 'node:path';
import { expect } from 'chai';
import { TestServer } from '../support/test-server';

/** The project's own extensions directory (this file runs from dist/spec/extensions). */
export const SHIPPED_EXTENSIONS = path.resolve(__dirname, '..', '..', '..', 'extensions');

/** Installs an extension for the test credential's company through its manager; answers its id. */
export async function install(server: TestServer, manager: string, body: string): Promise<number> {
  const res = await server.request('POST', `/api/${manager}/add.json`, { body });
  expect(res.status, res.text).to.equal(200);
  return res.json.response;
}

/** A client of the test credential's company, through the core clients model. */
export async function addClient(server: TestServer, name = 'Ada'): Promise<number> {
  const res = await server.request('POST', '/api/clients/add.json', { body: `vars[first_name]=${name}&vars[last_name]=Lovelace&vars[email]=${name.toLowerCase()}@example.com` });
  expect(res.status, res.text).to.equal(200);
  return res.json.response;
}
