import { ExtensionsDir, manifest, TINY } from '../../extensions/fixtures';

/** A plugin, a gateway with a secret and a required setting, one that fails to load, and one with a scheduled task. */
export function adminFixtureExtensions(): ExtensionsDir {
  return new ExtensionsDir()
    .add('plugins/greeter', manifest('Greeter', { description: 'Says hello.' }), TINY('hello from greeter'))
    .add(
      'gateways/merchant/cardpay',
      manifest('CardPay', {
        currencies: ['USD', 'EUR'],
        uses: ['transactions.add'],
        hosts: ['api.cardpay.example'],
        settings: { account: { label: 'Account name', required: true }, api_secret: { label: 'API secret', secret: true } },
      }),
      TINY('card paid'),
    )
    .add('plugins/broken', manifest('Broken'), 'throw new Error("broken at import");')
    .add('plugins/tidier', manifest('Tidier', { tasks: { tidy: 'every 30 minutes' } }), `${TINY('tidied')}\nexports.tasks = { tidy: () => undefined };`);
}
