import { expect } from 'chai';
import { isDatabaseUnavailable } from '../../../core/db/errors';

/** Which database failures are "not now" (503) and which are the query's own fault. */
describe('isDatabaseUnavailable', () => {
  const unavailable: Array<[string, unknown]> = [
    ['admin shutdown (restart)', { code: '57P01' }],
    ['crash shutdown', { code: '57P02' }],
    ['starting up / shutting down', { code: '57P03' }],
    ['statement timeout', { code: '57014' }],
    ['connection failure', { code: '08006' }],
    ['disk full', { code: '53100' }],
    ['too many connections', { code: '53300' }],
    ['refused socket', { code: 'ECONNREFUSED' }],
    ['reset socket', { code: 'ECONNRESET' }],
    ['SQLite busy', { code: 'SQLITE_BUSY' }],
    ['SQLite full', { code: 'SQLITE_FULL' }],
    ['SQLite I/O error', { code: 'SQLITE_IOERR_WRITE' }],
    ['lost connection', new Error('Connection terminated unexpectedly')],
    ['unusable client', new Error('Client has encountered a connection error and is not queryable')],
    ['pool wait', new Error('timeout exceeded when trying to connect')],
    ['frozen server', new Error('Query read timeout')],
  ];
  const theQuerysFault: Array<[string, unknown]> = [
    ['unique violation', { code: '23505' }],
    ['value out of range', { code: '22003' }],
    ['NUL byte', { code: '22021' }],
    ['serialization failure (retried, not 503)', { code: '40001' }],
    ['syntax error', { code: '42601' }],
    ['SQLite constraint', { code: 'SQLITE_CONSTRAINT_UNIQUE' }],
    ['plain error', new Error('something else')],
    ['nothing', undefined],
  ];
  for (const [name, error] of unavailable) it(`503 for ${name}`, () => expect(isDatabaseUnavailable(error)).to.equal(true));
  for (const [name, error] of theQuerysFault) it(`not 503 for ${name}`, () => expect(isDatabaseUnavailable(error)).to.equal(false));
});
