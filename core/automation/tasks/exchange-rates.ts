import { SETTINGS } from '../../settings-catalogue';
import { sliced, Task, TaskRun } from '../task-run';

/**
 * Exchange Rate Updates: once a day, for a company with exchange_rates_auto_update on,
 * currencies/updateRates through its exchange rate processor (an extension), as the company.
 * A processor that fails is the unit's 400: counted, and the rates are left as they were.
 */
export const exchangeRates: Task = {
  name: 'exchange_rates',
  kind: 'daily',
  callsExtensions: true,
  title: 'Update exchange rates',
  run: async (run: TaskRun) => {
    // A company-wide task: done in the pass of the company's own billing settings only, not once per profile.
    if (run.profile && run.profile.name !== '') return { processed: 0, failed: 0, messages: [] };
    // Per company, not per client: the one unit is filed under client 0 (one slice, one lease).
    const fetch = async () => {
      const on = (await run.installation.settings.read(run.companyId)).get('exchange_rates_auto_update') ?? SETTINGS.exchange_rates_auto_update.default;
      return on === 'true' ? [{ client_id: 0 }] : [];
    };
    return sliced({ ...run, profile: undefined }, 'exchange_rates', fetch, async (_rows, unit) => {
      await unit('exchange rates', async (ctx, calls) => {
        await calls.call(ctx, 'currencies', 'updateRates', {});
        return true;
      });
    });
  },
};
