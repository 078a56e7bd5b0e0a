import { Command } from 'commander';
import { parseId, withInstallation } from './api-keys-command';
import { deliveryTable } from './delivery-table';
import { localCaller } from './open-installation';
import { textTable } from './text-table';
import { printedJson } from './webhooks-command';

interface Event {
  id: string;
  type: string;
  company_id: number;
  occurred_at: string;
  payload: unknown;
}

interface CompanyOption {
  company: number;
  json?: boolean;
}

/**
 * `tally events types|list|get|deliveries`: the catalogue, and a company's events and where each
 * was delivered, read through the call path as that company (the `events` model): another
 * company's event is not there.
 */
export function eventsCommand(out: (text: string) => void): Command {
  const command = new Command('events').description("The event catalogue, and a company's events and their deliveries (docs/events.md)");
  const read = (company: number, method: string, params: Record<string, unknown>) => withInstallation((i) => i.call('events', method, params, localCaller(company)));
  const withCompany = (sub: Command) => sub.option('--company <id>', 'company id', parseId, 1);

  command
    .command('types')
    .description('Every event type Tally emits and what makes it')
    .option('--json', 'print JSON, with each payload description')
    .action(async (options: { json?: boolean }) => {
      const types = (await read(1, 'getTypes', {})) as Array<{ type: string; origin: string; description: string }>;
      out(
        options.json
          ? printedJson(types)
          : textTable(
              ['type', 'origin', 'made by'],
              types.map((t) => [t.type, t.origin, t.description]),
            ),
      );
    });

  withCompany(command.command('list').description("The company's events, newest first, 25 a page"))
    .option('--type <event-type>', 'only events of this type, e.g. Invoices.add')
    .option('--after <event-id>', 'only events after this one')
    .option('--page <n>', 'page', parseId, 1)
    .option('--json', 'print JSON, with each payload')
    .action(async (options: CompanyOption & { type?: string; after?: string; page: number }) => {
      const events = (await read(options.company, 'getList', {
        page: options.page,
        ...(options.type !== undefined && { type: options.type }),
        ...(options.after !== undefined && { after: options.after }),
      })) as Event[];
      if (options.json) return out(printedJson(events));
      if (!events.length) return out(`Company ${options.company} has no events${options.type ? ` of type ${options.type}` : ''} on page ${options.page}.`);
      out(
        textTable(
          ['id', 'type', 'occurred'],
          events.map((e) => [e.id, e.type, e.occurred_at]),
        ),
      );
    });

  withCompany(command.command('get <event-id>').description('One event of the company with its payload, as JSON')).action(async (eventId: string, options: CompanyOption) => {
    const event = await read(options.company, 'get', { event_id: eventId });
    if (event === false) throw new Error(`Company ${options.company} has no event ${eventId}.`);
    out(printedJson(event));
  });

  withCompany(command.command('deliveries <event-id>').description('Where one event of the company was delivered: its webhook endpoints and plugins'))
    .option('--json', 'print JSON')
    .action(async (eventId: string, options: CompanyOption) => {
      const rows = await read(options.company, 'getDeliveries', { event_id: eventId });
      out(options.json ? printedJson(rows) : deliveryTable(rows as never, `Company ${options.company} has no deliveries of event ${eventId}.`));
    });
  return command;
}
