import { createLogger } from '../logger';
import { serve } from '../server';
import { openInstallation } from './open-installation';

/** Serves the API until SIGTERM/SIGINT, then finishes in-flight calls before exiting. */
export async function serveCommand(options: { port?: string; host?: string }): Promise<number> {
  const logger = createLogger();
  const port = Number(options.port ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a number from 0 to 65535, not "${options.port ?? process.env.PORT}".`);
  const installation = await openInstallation();
  const server = await serve({ installation, port, host: options.host ?? process.env.HOST, logger }).catch(async (error) => {
    await installation.close();
    throw error;
  });
  const keys = await installation.db.selectFrom('api_keys').select('id').limit(1).execute();
  const lines = [
    `Tally is serving the API at ${server.url}/api/<model>/<method>.<format>`,
    `Database: ${installation.connection.dialect} (${installation.connection.where})`,
    keys.length
      ? 'API credentials: list them with `npx tally api-keys list`, create more with `npx tally api-keys create --company 1`.'
      : 'No API credentials yet. Create one with `npx tally api-keys create --company 1` (the key is shown once), then:',
    `  curl -H "SERVICE-API-USER: <user>" -H "SERVICE-API-KEY: <key>" "${server.url}/api/users/getList.json"`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down: finishing in-flight calls');
      server.close().then(
        () => resolve(0),
        (error) => {
          logger.error({ err: error }, 'shutdown failed');
          resolve(1);
        },
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
