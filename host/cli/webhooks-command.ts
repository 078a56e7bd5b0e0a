import { Command } from 'commander';
import { Installation } from '../../core/installation';
import { auditedCall } from './audited-call';
import { parseId, withInstallation } from './api-keys-command';
import { localCaller } from './open-installation';
import { terminalText } from './terminal-text';
import { textTable } from './text-table';
import { deliveryTable } from './delivery-table';

interface Endpoint {
  id: number;
  url: string;
  description: string | null;
  event_types: string[];
  status: string;
  disabled_reason: string | null;
  rotating_until: string | null;
  health: { pending: number; retrying: number; dead: number; delivered_24h: number; last_attempt: string | null; last_status: number | null };
}

interface Attempt {
  id: number;
  attempted_at: string;
  duration_ms: number;
  status: number | null;
  error: string | null;
  response: string | null;
}

interface CompanyOption {
  company: number;
  json?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** JSON as a command prints it: the same JSON, with characters that would drive a terminal escaped. */
export const printedJson = (value: unknown) => terminalText(JSON.stringify(value));

/**
 * `tally webhooks ...`: a company's webhook endpoints, their deliveries and resending, from the
 * machine itself. Every command is a call of the `webhooks` model through the call path as the
 * named company (writes audited as the command line's), so it answers and refuses exactly as the
 * API does: another company's endpoint or delivery is not there.
 */
export function webhooksCommand(out: (text: string) => void): Command {
  const command = new Command('webhooks').description("A company's webhook endpoints, their deliveries, and resending (docs/events.md)");
  const call = (company: number, method: string, params: Record<string, unknown>, write = false) =>
    withInstallation((i: Installation) => (write ? auditedCall(i, 'webhooks', method, params, company) : i.call('webhooks', method, params, localCaller(company))));
  const withCompany = (sub: Command) => sub.option('--company <id>', 'company id', parseId, 1);

  withCompany(command.command('list').description("The company's endpoints with their health (never their secrets)"))
    .option('--json', 'print JSON')
    .action(async (options: CompanyOption) => {
      const rows = (await call(options.company, 'getList', {})) as Endpoint[];
      if (options.json) return out(printedJson(rows));
      if (!rows.length) return out(`Company ${options.company} has no webhook endpoints.`);
      out(endpointTable(rows));
    });

  withCompany(command.command('add <url>').description('Add an endpoint; its signing secret is printed once and cannot be shown again'))
    .option('--type <event-type>', 'an event type it receives, e.g. Invoices.add (repeat for more); default every type', collect, [])
    .option('--description <text>', 'what the endpoint is for')
    .option('--json', 'print the endpoint with its secret as JSON')
    .action(async (url: string, options: CompanyOption & { type: string[]; description?: string }) => {
      const vars: Record<string, unknown> = { url };
      if (options.type.length) vars.event_types = options.type;
      if (options.description !== undefined) vars.description = options.description;
      const added = (await call(options.company, 'add', { vars }, true)) as Endpoint & { secret: string };
      if (options.json) return out(printedJson(added));
      out([endpointTable([added]), `Signing secret: ${added.secret}`, 'Store the secret now: it is not shown again.'].join('\n'));
    });

  withCompany(command.command('edit <webhook-id>').description("Change an endpoint's URL, event types or description"))
    .option('--url <url>', 'the new URL')
    .option('--type <event-type>', 'the event types it receives from now on (repeat for more)', collect, [])
    .option('--all-types', 'receive every event type')
    .option('--description <text>', 'the new description ("" for none)')
    .action(async (id: string, options: CompanyOption & { url?: string; type: string[]; allTypes?: boolean; description?: string }) => {
      const vars: Record<string, unknown> = {};
      if (options.url !== undefined) vars.url = options.url;
      if (options.allTypes && options.type.length) throw new Error('Give --type or --all-types, not both.');
      if (options.allTypes) vars.event_types = '';
      if (options.type.length) vars.event_types = options.type;
      if (options.description !== undefined) vars.description = options.description;
      if (!Object.keys(vars).length) throw new Error('Nothing to change: give --url, --type, --all-types or --description.');
      out(endpointTable([(await call(options.company, 'edit', { webhook_id: parseId(id), vars }, true)) as Endpoint]));
    });

  for (const status of ['enabled', 'disabled'] as const) {
    const verb = status === 'enabled' ? 'enable' : 'disable';
    withCompany(command.command(`${verb} <webhook-id>`).description(status === 'enabled' ? 'Send to an endpoint again (after disable, or a 410 Gone)' : 'Stop sending to an endpoint')).action(
      async (id: string, options: CompanyOption) => {
        out(endpointTable([(await call(options.company, 'edit', { webhook_id: parseId(id), vars: { status } }, true)) as Endpoint]));
      },
    );
  }

  withCompany(command.command('delete <webhook-id>').description('Delete an endpoint with its pending deliveries and delivery log')).action(async (id: string, options: CompanyOption) => {
    await call(options.company, 'delete', { webhook_id: parseId(id) }, true);
    out(`Deleted webhook endpoint ${id} of company ${options.company}.`);
  });

  withCompany(command.command('rotate-secret <webhook-id>').description('Give an endpoint a new signing secret, printed once; the old one keeps signing during the overlap'))
    .option('--overlap-hours <hours>', 'how long the old secret keeps signing beside the new one (0 to 168)', parseId, 24)
    .option('--json', 'print {"id","secret","rotating_until"} as JSON')
    .action(async (id: string, options: CompanyOption & { overlapHours: number }) => {
      const rotated = (await call(options.company, 'rotateSecret', { webhook_id: parseId(id), overlap_hours: options.overlapHours }, true)) as { secret: string; rotating_until: string | null };
      if (options.json) return out(printedJson(rotated));
      const overlap = rotated.rotating_until ? `The old secret keeps signing beside it until ${rotated.rotating_until} UTC.` : 'The old secret no longer signs.';
      out([`New signing secret: ${rotated.secret}`, overlap, 'Store the secret now: it is not shown again.'].join('\n'));
    });

  withCompany(command.command('deliveries <webhook-id>').description("An endpoint's deliveries, newest first, 25 a page"))
    .option('--status <status>', 'only pending, delivered or dead ones')
    .option('--page <n>', 'page', parseId, 1)
    .option('--json', 'print JSON')
    .action(async (id: string, options: CompanyOption & { status?: string; page: number }) => {
      const rows = await call(options.company, 'getDeliveries', { webhook_id: parseId(id), page: options.page, ...(options.status !== undefined && { status: options.status }) });
      out(options.json ? printedJson(rows) : deliveryTable(rows as never, `Endpoint ${id} has no deliveries${options.status ? ` ${options.status}` : ''} on page ${options.page}.`));
    });

  withCompany(command.command('dead').description("The company's dead deliveries (retries exhausted), newest first, 25 a page"))
    .option('--page <n>', 'page', parseId, 1)
    .option('--json', 'print JSON')
    .action(async (options: CompanyOption & { page: number }) => {
      const rows = await call(options.company, 'getDead', { page: options.page });
      out(options.json ? printedJson(rows) : deliveryTable(rows as never, `Company ${options.company} has no dead deliveries on page ${options.page}.`));
    });

  withCompany(command.command('attempts <delivery-id>').description('Every attempt at one delivery: when, how long, the status and the start of the answer'))
    .option('--json', 'print JSON')
    .action(async (id: string, options: CompanyOption) => {
      const rows = (await call(options.company, 'getAttempts', { delivery_id: parseId(id) })) as Attempt[];
      if (options.json) return out(printedJson(rows));
      if (!rows.length) return out(`Company ${options.company} has no attempts at delivery ${id}.`);
      out(
        textTable(
          ['attempted', 'ms', 'status', 'answer'],
          rows.map((a) => [a.attempted_at, a.duration_ms, a.status ?? '-', (a.error ?? a.response ?? '').slice(0, 80)]),
        ),
      );
    });

  withCompany(command.command('resend <delivery-id>').description('Send one delivery again at once, with the same webhook-id and a fresh round of retries')).action(
    async (id: string, options: CompanyOption) => out(queued(await call(options.company, 'resend', { delivery_id: parseId(id) }, true))),
  );

  withCompany(command.command('resend-event <event-id>').description('Send every webhook delivery of one event again')).action(async (eventId: string, options: CompanyOption) =>
    out(queued(await call(options.company, 'resendEvent', { event_id: eventId }, true))),
  );

  withCompany(command.command('resend-failed <webhook-id>').description("Send again an endpoint's dead and retrying deliveries made since a time"))
    .requiredOption('--since <time>', '"YYYY-MM-DD hh:mm:ss" (with a zone, e.g. UTC, or in the company\'s)')
    .action(async (id: string, options: CompanyOption & { since: string }) => out(queued(await call(options.company, 'resendFailed', { webhook_id: parseId(id), since: options.since }, true))));

  return command;
}

const queued = (count: unknown) => `Queued ${count} ${count === 1 ? 'delivery' : 'deliveries'}.`;

function endpointTable(rows: readonly Endpoint[]): string {
  const status = (e: Endpoint) => (e.disabled_reason ? `${e.status} (${e.disabled_reason})` : e.status);
  const last = (e: Endpoint) => (e.health.last_attempt ? `${e.health.last_status ?? 'failed'} at ${e.health.last_attempt}` : 'never');
  return textTable(
    ['id', 'status', 'url', 'types', 'pending', 'retrying', 'dead', 'delivered 24h', 'last attempt', 'description'],
    rows.map((e) => [
      e.id,
      status(e),
      e.url,
      e.event_types.length ? e.event_types.join(',') : 'all',
      e.health.pending,
      e.health.retrying,
      e.health.dead,
      e.health.delivered_24h,
      last(e),
      e.description ?? '',
    ]),
  );
}
