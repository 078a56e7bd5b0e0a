import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Installation } from '../../core/installation';

export interface Fixture {
  readonly databaseUrl: string;
  readonly user: string;
  readonly key: string;
  readonly userId: number;
  cleanup(): void;
}

/** A fresh SQLite installation with one user and one credential for company 1. */
export async function sqliteFixture(): Promise<Fixture> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-bench-'));
  const databaseUrl = path.join(dir, 'bench.sqlite');
  const installation = await Installation.open({ databaseUrl });
  const caller = { companyId: 1, user: 'bench' };
  try {
    const userId = (await installation.call(
      'users',
      'add',
      { vars: { username: 'bench', new_password: 'bench-password', confirm_password: 'bench-password' } },
      caller,
    )) as number;
    const credential = (await installation.call('api_keys', 'add', { vars: { company_id: 1 } }, caller)) as { user: string; key: string };
    return { databaseUrl, userId, user: credential.user, key: credential.key, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
  } finally {
    await installation.close();
  }
}
