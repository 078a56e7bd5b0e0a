import { expect } from 'chai';
import { CallHooks, CallStage } from '../../core/call-hooks';
import { assembleInstallation } from '../../host/assemble-installation';
import { createTestDatabase } from '../support/test-database';

/** Hooks are added by stage name while an installation is assembled; a mistake stops the start, never a call. */
describe('call hooks', () => {
  it('refuses an unknown stage name, saying which stages there are', () => {
    const hooks = new CallHooks();
    expect(() => hooks.add('afterComit' as CallStage, () => undefined)).to.throw('Unknown call stage "afterComit": hooks can be added at authorise, claim, beforeCommit, afterCommit, answered.');
  });

  it('refuses a hook added once the installation was assembled (it would never run)', () => {
    const hooks = new CallHooks();
    hooks.add('afterCommit', () => undefined);
    hooks.seal();
    expect(() => hooks.add('afterCommit', () => undefined)).to.throw(/added after the installation was assembled/);
    expect(hooks.registered.afterCommit).to.have.length(1);
  });

  it('an unknown stage name stops the start of an installation with that message, and leaves its database closed', async () => {
    const database = await createTestDatabase();
    try {
      const started = assembleInstallation({ databaseUrl: database.url, hooks: (hooks) => hooks.add('beforeComit' as CallStage, () => undefined) });
      const failure = await started.then(
        () => null,
        (error: Error) => error,
      );
      expect(failure?.message).to.equal('Unknown call stage "beforeComit": hooks can be added at authorise, claim, beforeCommit, afterCommit, answered.');
    } finally {
      await database.drop();
    }
  });
});
