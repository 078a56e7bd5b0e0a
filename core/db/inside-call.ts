import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Marks the asynchronous work of a running call. SQLite has one connection and the call's
 * transaction holds it, so a query a model sends through the installation's database instead of
 * its call's transaction (`ctx.db`) would wait for the connection forever; the SQLite driver uses
 * this mark to fail such a query at once, with a message that names the mistake.
 */
export const insideCall = new AsyncLocalStorage<true>();
