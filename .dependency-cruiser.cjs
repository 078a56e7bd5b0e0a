/**
 * Which way imports may point (README, "Project layout"; DESIGN.md §2). `npm test` runs this check
 * (`npm run check:imports`) before the specs, so an import up a layer or a cycle fails the build.
 *
 * Core, from the bottom up:
 *   errors      core/kernel/errors.ts, core/kernel/tally-error.ts: the catalogue and its error,
 *               which import nothing of Tally's
 *   config      core/config.ts: the environment, read once
 *   db          core/db/: Kysely, dialects, migrations
 *   kernel      core/kernel/ and the settings catalogue and store beside it
 *   identity    core/identity/: credentials, their scope, lock-outs, tenancy, the trust tables
 *   events      core/events/: the outbox (writing an event in the call's transaction) and its
 *               delivery (webhooks, consumers such as plugins' handlers)
 *   billing     core/billing/: the billing rules shared by models and automation
 *   delivery    core/delivery/: mail (transport, templates, the message outbox, the mail log) and
 *               PDF invoices, which models and workers use and which use the billing rules
 *   payments    core/payments/: gateway notifications (the inbox) and recording what a gateway
 *               says exactly once, over the billing rules
 *   models      core/models/; a file in core/models/<x>/ is private to <x>
 *   automation  core/automation/, beside the models: it reaches them through the call path
 *   call contract core/call-record.ts, core/call-hooks.ts: what a call is and the hooks' stage
 *               names and signatures (types the trust hooks implement; no behaviour)
 *   trust       core/trust/: the call guard, idempotency, rate limits, the audit writer
 *   call path   core/installation.ts, core/call-path.ts
 * and host/ above all of core.
 */
const ERRORS = '^core/kernel/(errors|tally-error)\\.ts$';
const CONFIG = '^core/config\\.ts$';
const DB = '^core/db/';
const KERNEL = '^core/(kernel/|settings-catalogue\\.ts$|settings-store\\.ts$)';
const EVENTS = '^core/events/';
const BILLING = '^core/billing/';
const DELIVERY = '^core/delivery/';
const PAYMENTS = '^core/payments/';
const MODELS = '^core/models/';
const AUTOMATION = '^core/automation/';
const IDENTITY = '^core/identity/';
const TRUST = '^core/trust/';
const CALL_CONTRACT = '^core/(call-record|call-hooks)\\.ts$';
const CALL_PATH = '^core/(installation|call-path)\\.ts$';

/** A rule that `from` imports nothing in core but the layers listed. */
function onlyDownward(name, comment, from, below) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from, pathNot: ERRORS },
    to: { path: '^core/', pathNot: [from, ...below] },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle anywhere, type-only imports included: a cycle ties its files into one unit that can only be understood, loaded and changed together.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-not-host',
      comment: 'core/ is the installation without HTTP: it never imports host/.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^host/' },
    },
    {
      name: 'errors-are-a-leaf',
      comment: 'The errors catalogue and TallyError import nothing of Tally but each other, so every layer can use them.',
      severity: 'error',
      from: { path: ERRORS },
      to: { path: '^(core|host)/', pathNot: ERRORS },
    },
    onlyDownward('config-is-a-leaf', 'core/config.ts reads the environment and imports nothing of Tally.', CONFIG, []),
    onlyDownward('db-imports-downward', 'core/db imports only the errors and the configuration below it.', DB, [ERRORS, CONFIG]),
    onlyDownward('kernel-imports-downward', 'The kernel (decorators, call context, money, timestamps, settings) imports only db, config and errors.', KERNEL, [ERRORS, CONFIG, DB]),
    onlyDownward(
      'identity-imports-downward',
      'Who calls (credentials, their scope, lock-outs, tenancy, the trust tables) sits beside the kernel: it imports only kernel, db, config and errors.',
      IDENTITY,
      [ERRORS, CONFIG, DB, KERNEL],
    ),
    onlyDownward(
      'events-import-downward',
      'The outbox and its delivery sit below the billing rules, which write events in their transactions: they import only kernel, db, config and errors.',
      EVENTS,
      [ERRORS, CONFIG, DB, KERNEL],
    ),
    onlyDownward('billing-imports-downward', 'The billing rules sit below models and automation: they import only identity, kernel, db, config and errors.', BILLING, [
      ERRORS,
      CONFIG,
      DB,
      KERNEL,
      IDENTITY,
      EVENTS,
    ]),
    onlyDownward('delivery-imports-downward', 'Mail and PDF invoices sit above the billing rules and below the models that expose them: they import only billing and what is below.', DELIVERY, [
      ERRORS,
      CONFIG,
      DB,
      KERNEL,
      IDENTITY,
      EVENTS,
      BILLING,
    ]),
    onlyDownward('payments-import-downward', 'Recording what a gateway says sits above the billing rules and delivery (receipts) and below the models that expose it.', PAYMENTS, [
      ERRORS,
      CONFIG,
      DB,
      KERNEL,
      IDENTITY,
      EVENTS,
      BILLING,
      DELIVERY,
    ]),
    onlyDownward(
      'models-import-downward',
      'Models import the billing rules, delivery, payments and what is below; never automation, trust, the call path or the installation (they reach other models through ctx.models and the call path).',
      MODELS,
      [ERRORS, CONFIG, DB, KERNEL, IDENTITY, EVENTS, BILLING, DELIVERY, PAYMENTS],
    ),
    onlyDownward('automation-beside-models', 'Automation uses the billing rules below it and reaches models through the call path (the installation), never by importing a model.', AUTOMATION, [
      ERRORS,
      CONFIG,
      DB,
      KERNEL,
      IDENTITY,
      EVENTS,
      BILLING,
      DELIVERY,
      PAYMENTS,
      CALL_PATH,
    ]),
    onlyDownward('call-contract-imports-downward', 'What a call is and the hook signatures are types over the kernel and identity: the call path runs them, trust implements them.', CALL_CONTRACT, [
      ERRORS,
      CONFIG,
      DB,
      KERNEL,
      IDENTITY,
    ]),
    onlyDownward(
      'trust-imports-downward',
      'Trust (the call guard, idempotency, rate limits, the audit writer) sits between the call path and the models; its hooks implement the call contract.',
      TRUST,
      [ERRORS, CONFIG, DB, KERNEL, IDENTITY, EVENTS, BILLING, DELIVERY, PAYMENTS, MODELS, CALL_CONTRACT],
    ),
    {
      name: 'models-are-private',
      comment:
        'A model (core/models/<x>.ts, <x>.fields.ts and the folder core/models/<x>/) imports no other model: what two models share lives in core/billing/, and a model uses another through the call path (ctx.models). Record shapes (<y>.fields.ts, declarations the API documents) may be shared.',
      severity: 'error',
      from: { path: '^core/models/([^/.]+)', pathNot: '^core/models/index\\.ts$' },
      to: { path: '^core/models/', pathNot: ['^core/models/$1(/|\\.ts$|\\.fields\\.ts$)', '^core/models/[^/]+\\.fields\\.ts$'] },
    },
    {
      name: 'model-folders-are-private-outside',
      comment: "Nothing outside core/models/ reaches into a model's folder; core/models/index.ts registers the models.",
      severity: 'error',
      from: { pathNot: '^(core/models|spec)/' },
      to: { path: '^core/models/[^/]+/' },
    },
    {
      name: 'extensions-not-cli',
      comment: 'The extension runtime serves the API, the CLI and the admin area alike: it never imports the command line.',
      severity: 'error',
      from: { path: '^host/extensions/' },
      to: { path: '^host/cli/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    // TypeScript 7 has no compiler API for dependency-cruiser 16 to parse with; swc parses the
    // sources as written, so type-only imports count as the rules above say.
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
